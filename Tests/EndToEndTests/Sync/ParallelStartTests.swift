import Foundation
import TestSupport
import Testing

/// Many first commands started at once on a new device, as a script or a shell loop with `&`
/// does: every one succeeds, the store is made and filled with the default data once, and the
/// device gets a single peer ID.
@Suite("Parallel first commands")
struct ParallelStartTests {
    let directory = TemporaryDirectory("parallel")
    /// How many processes start at once.
    static let width = 12
    /// Fresh devices per test: the race is probabilistic, each round is a new chance to lose it.
    static let rounds = 3

    func device(_ name: String, environment: [String: String] = [:]) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: environment)
    }

    /// Starts every command in its own process at the same moment, then waits for all.
    func runAtOnce(_ runner: CommandRunner, _ commands: [[String]]) throws -> [CommandResult] {
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var results: [Int: Result<CommandResult, any Error>] = [:]
        }
        let outcomes = Outcomes()
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let threads = commands.enumerated().map { index, arguments in
            Thread {
                start.wait()
                let result = Result { try runner.run(arguments) }
                outcomes.lock.withLock { outcomes.results[index] = result }
                finished.leave()
            }
        }
        for thread in threads {
            finished.enter()
            thread.start()
        }
        for _ in threads { start.signal() }
        finished.wait()
        return try commands.indices.map { try outcomes.results[$0]!.get() }
    }

    /// Checks that every command exited 0 without a word on stderr.
    func expectAllSucceeded(_ results: [CommandResult], _ commands: [[String]], round: Int) {
        for (result, command) in zip(results, commands) {
            #expect(
                result.status == 0 && result.stderr.isEmpty,
                "round \(round), \(command): exit \(result.status), \(result.stderr)")
        }
    }

    func peerID(ofDevice device: String) throws -> String {
        let data = try Data(contentsOf: directory.url.appendingPathComponent("devices/\(device)/device.json"))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["peerID"] as! String
    }

    @Test func parallelFirstCommandsOnANewDeviceAllSucceedAndLoadTheDefaultDataOnce() throws {
        let defaults = try device("reference").itemNames()
        #expect(defaults.count >= 100)
        for round in 1...Self.rounds {
            let runner = device("new-\(round)")
            // Odd rounds only add; even rounds mix adds with a listing and a status.
            let commands: [[String]] = (1...Self.width).map { index in
                guard round % 2 == 0 else { return ["item", "add", "Parallel \(index)"] }
                switch index % 4 {
                case 0: return ["item", "ls", "--json"]
                case 1: return ["cloud", "status", "--json"]
                default: return ["item", "add", "Parallel \(index)"]
                }
            }
            let results = try runAtOnce(runner, commands)
            expectAllSucceeded(results, commands, round: round)

            let added = commands.filter { $0[1] == "add" }.map { $0[2] }
            #expect(
                try runner.itemNames() == (defaults + added).sorted(),
                "round \(round): each add once, the default data once")
            let peer = try peerID(ofDevice: runner.device)
            for (result, command) in zip(results, commands) where command[0] == "cloud" && result.status == 0 {
                let status = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
                #expect(status["peerID"] as? String == peer, "round \(round): one peer ID for the device")
            }
        }
    }

    @Test func parallelAddsOnACloudDeviceAllSucceedAndAreEachExportedOnce() throws {
        let cloud = directory.url.appendingPathComponent("Shared")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let global = ["--cloud", cloud.path]
        for round in 1...Self.rounds {
            let runner = device("cloudy-\(round)", environment: CommandRunner.withoutDefaultData)
            try runner.output(global + ["cloud", "enable", "--no-merge"])
            let added = (1...Self.width).map { "Cloud \(round)-\($0)" }
            let commands = added.map { global + ["item", "add", $0] }
            let results = try runAtOnce(runner, commands)
            expectAllSucceeded(results, commands, round: round)

            #expect(try runner.itemNames(global).filter { $0.hasPrefix("Cloud \(round)-") } == added.sorted())
            // The device's logs are in one peer's folder, and each add is in exactly one log.
            let peer = try peerID(ofDevice: runner.device)
            let logsFolder = cloud.appendingPathComponent("default/GroceryDude/v3/epoch-1/logs")
            let logs = try FileManager.default.contentsOfDirectory(atPath: logsFolder.appendingPathComponent(peer).path)
                .filter { $0.hasSuffix(".gdlog") }
                .map { try String(contentsOf: logsFolder.appendingPathComponent("\(peer)/\($0)"), encoding: .utf8) }
            for name in added {
                #expect(logs.filter { $0.contains("\"\(name)\"") }.count == 1, "round \(round): \(name) exported once")
            }
        }
        // Another device sees every add once.
        let reader = device("reader", environment: CommandRunner.withoutDefaultData)
        try reader.output(global + ["cloud", "enable", "--no-merge"])
        let seen = try reader.itemNames(global)
        #expect(seen.count == Self.rounds * Self.width && Set(seen).count == seen.count, "\(seen)")
    }
}
