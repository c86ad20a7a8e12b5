import Foundation
import TestSupport
import Testing

/// Four devices on one cloud folder, one of them watching, doing random list work — lists made,
/// renamed, removed, started over and merged, items added and edited, a device going offline
/// and back, commands dying at points the seed picks (after a commit, mid-log, mid-start-over) —
/// end with the same lists, each with the same items, on every device, and `cloud verify`
/// agreeing on each.
@Suite("Named lists soak")
struct NamedListsSoakTests {
    let directory = TemporaryDirectory("lists-soak")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    static let names = ["Trip", "Camp", "Party", "Week"]

    /// What a device shows of its lists: each list's name and store.
    func lists(_ peer: CommandRunner) throws -> [(name: String, store: String)] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try peer.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        return rows.map { ($0["name"] as! String, $0["store"] as! String) }.sorted { $0.store < $1.store }
    }

    /// A list's items on a device, as "name × quantity", sorted.
    func contents(_ peer: CommandRunner, store: String) throws -> [String] {
        try peer.items(["--list", store]).map { "\($0["name"] as! String) × \($0["quantity"] as! Int)" }.sorted()
    }

    @Test(arguments: [7 as UInt64, 1_234])
    func randomListWorkOnFourDevicesEndsTheSameEverywhere(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let devices = ["a", "b", "c", "d"].map(device)
        for peer in devices { try peer.output(["cloud", "enable"]) }
        for peer in devices { try peer.output(["cloud", "sync"]) }
        let watch = try devices[3].start(["cloud", "watch"])
        #expect(
            watch.waitForLine { $0.contains("Using local storage: 0") } != nil,
            "\(watch.stdoutLines) \(watch.stderrLines)")

        var offline = false
        var log: [String] = []
        // Lists to work on from the start; c makes one apart, under a name a and b use too.
        for peer in [devices[0], devices[2]] { try peer.output(["cloud", "offline"]) }
        try devices[2].output(["lists", "new", "Trip"])
        try devices[2].output(["--list", "Trip", "item", "add", "Item0"])
        try devices[0].output(["lists", "new", "trip"])
        for peer in [devices[0], devices[2]] { try peer.output(["cloud", "online"]) }
        try devices[1].output(["lists", "new", "Camp"])
        for step in 0..<80 {
            let peer = devices[Int.random(in: 0..<3, using: &random)]
            // Mostly a list the device shows (by its store name when the name is shared), else any name.
            let shown = try lists(peer).filter { $0.store != "GroceryDude" }
            let name =
                Int.random(in: 0..<10, using: &random) < 8 && !shown.isEmpty
                ? shown.randomElement(using: &random)!.name : Self.names.randomElement(using: &random)!
            var command: [String]
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<10: command = ["lists", "new", Self.names.randomElement(using: &random)!]
            case 10..<40: command = ["--list", name, "item", "add", "Item\(Int.random(in: 0..<12, using: &random))"]
            case 40..<55:
                command = [
                    "--list", name, "item", "edit", "Item\(Int.random(in: 0..<12, using: &random))",
                    "--quantity", "\(Int.random(in: 1..<9, using: &random))",
                ]
            case 55..<62: command = ["lists", "rename", name, Self.names.randomElement(using: &random)!]
            case 62..<65: command = ["lists", "rm", name, "--yes"]
            case 65..<69: command = ["--list", name, "cloud", "start-over", "--yes"]
            case 69..<78:
                // c goes offline and back: lists made and renamed meanwhile are made apart.
                offline.toggle()
                try devices[2].output(["cloud", offline ? "offline" : "online"])
                log.append("\(step) c \(offline ? "offline" : "online")")
                continue
            case 78..<88:
                // A command killed (SIGKILL, as a power cut) at a point the seed picks: after its
                // save commits, halfway through writing its log, halfway through a start over.
                let (fault, killedCommand) = [
                    ("after-commit", ["--list", name, "item", "add", "Killed\(step)"]),
                    ("mid-log-write", ["--list", name, "item", "add", "Killed\(step)"]),
                    (
                        "after-commit",
                        [
                            "--list", name, "item", "edit", "Item\(Int.random(in: 0..<12, using: &random))",
                            "--quantity", "7",
                        ]
                    ),
                    ("mid-start-over", ["--list", name, "cloud", "start-over", "--yes"]),
                ].randomElement(using: &random)!
                let killed = try peer.run(killedCommand, environment: ["GROCERY_DUDE_FAULT": fault])
                log.append(
                    "\(step) \(peer.device) \(killedCommand.joined(separator: " ")) killed at \(fault) → \(killed.status)"
                )
                continue
            default: command = ["cloud", "sync"]
            }
            let result = try peer.run(command)
            log.append(
                "\(step) \(peer.device) \(command.joined(separator: " ")) → \(result.status) \(result.stderr.prefix(400))"
            )
            // A refusal is a message and exit 1, never a crash.
            #expect(result.status == 0 || result.status == 1, "\(log.joined(separator: "\n"))")
            // Two lists made apart under one name: the device makes them one.
            if result.stderr.contains("lists answer to"),
                let merge = result.stderr.range(of: "grocery-dude lists merge ")
            {
                let words = result.stderr[merge.upperBound...].split(separator: " ").prefix(3).map(String.init)
                let merged = try peer.run([
                    "lists", "merge", words[0], "--into", words[2].trimmingCharacters(in: .whitespacesAndNewlines),
                    "--yes",
                ])
                log.append(
                    "\(step) \(peer.device) lists merge \(words) → \(merged.status) \(merged.stderr.prefix(160))")
                #expect(merged.status == 0, "\(log.joined(separator: "\n"))")
            }
        }
        if offline { try devices[2].output(["cloud", "online"]) }
        #expect(watch.isRunning, "the watcher lived through it all: \(watch.stderrLines)")
        #expect(watch.stop() == 0)

        // Settle: every device syncs every list it knows, until nothing moves.
        for _ in 0..<3 {
            for peer in devices {
                try peer.output(["cloud", "sync"])
                for list in try lists(peer) { _ = try peer.run(["--list", list.store, "cloud", "sync"]) }
            }
        }
        let expected = try lists(devices[0])
        for peer in devices {
            #expect(
                try lists(peer).map { "\($0.name) \($0.store)" } == expected.map { "\($0.name) \($0.store)" },
                "\(peer.device)'s lists\n\(log.joined(separator: "\n"))")
        }
        for list in expected {
            let reference = try contents(devices[0], store: list.store)
            for peer in devices.dropFirst() {
                #expect(
                    try contents(peer, store: list.store) == reference,
                    "\(list.name) on \(peer.device)\n\(log.joined(separator: "\n"))")
            }
            // Each publishes its digest, then each compares.
            for peer in devices + devices {
                let verify = try peer.run(["--list", list.store, "cloud", "verify"])
                #expect(
                    verify.status == 0 && !verify.stdout.contains("DIVERGED")
                        && !verify.stdout.contains("CANNOT AGREE"),
                    "\(list.name) on \(peer.device): \(verify.stdout) \(verify.stderr)")
            }
        }
    }
}
