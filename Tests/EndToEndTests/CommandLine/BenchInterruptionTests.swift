import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `grocery-dude-bench` interrupted half-way leaves nothing behind: not its temporary folder,
/// not the processes it started. No figure is read: what is checked is what stays on the machine.
@Suite("An interrupted benchmark")
struct BenchInterruptionTests {
    static let bench = CommandRunner.binary.deletingLastPathComponent().appendingPathComponent("grocery-dude-bench")

    /// The processes whose parent is `pid` and that have not ended (a zombie has ended).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return false }
            // After the command's name in parentheses: its state, then its parent's ID.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 1 && fields[0] != "Z" && Int32(fields[1]) == pid
        }
    }

    /// The processes, not ended, whose command line names `path`.
    static func processes(naming path: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard isRunning(pid), let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
                return false
            }
            return String(decoding: line.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self).contains(path)
        }
    }

    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else {
            return false
        }
        return stat[stat.index(after: end)...].split(separator: " ").first != "Z"
    }

    /// The latency bench, stopped while its follower and its four writers run: the bench exits
    /// as the signal says, its five processes stop, none starts after (its thread, the writers
    /// gone, would go on to the floor and its four writers), and its folder is gone.
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedBenchStopsWhatItStartedAndRemovesItsFolder(signal: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "built by `swift build`")
        let temporary = TemporaryDirectory("bench-tmp")
        let process = Process()
        process.executableURL = Self.bench
        // Writers that would save for a quarter of an hour.
        process.arguments = ["latency", "--changes", "100000"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.url.path]) { _, new in
            new
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let folder = temporary.url.appendingPathComponent("grocery-dude-bench-\(process.processIdentifier)")

        let started = try Poll.until(
            every: 0.05, reading: { Self.children(of: process.processIdentifier) },
            { "the follower and four writers running; running: \($0), the bench running: \(process.isRunning)" }
        ) { $0.count == 5 || !process.isRunning }
        try #require(started.count == 5, "the follower and four writers run")
        // Every writer has its store: the bench is in the middle of its work.
        try Poll.until(every: 0.05, "every writer's store made") {
            (1...4).allSatisfy {
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("latency/w\($0)/store.sqlite").path)
            }
        }
        try #require(FileManager.default.fileExists(atPath: folder.path))

        let signalled = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        #expect(Date().timeIntervalSince(signalled) < 5, "it exits at once")
        // Removed once the bench is gone, by a process that then ends too.
        try Poll.until(
            timeout: 10,
            "the folder removed (there: \(FileManager.default.fileExists(atPath: folder.path))) and no process in it "
                + "(\(Self.processes(naming: folder.path)))"
        ) {
            !FileManager.default.fileExists(atPath: folder.path) && Self.processes(naming: folder.path).isEmpty
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the temporary folder is removed")
        #expect(started.filter(Self.isRunning).isEmpty, "the processes it started stopped")
        let left = Self.processes(naming: folder.path)
        #expect(left.isEmpty, "no process works in the folder")
        for pid in started + left where Self.isRunning(pid) { kill(pid, SIGKILL) }
    }
}
