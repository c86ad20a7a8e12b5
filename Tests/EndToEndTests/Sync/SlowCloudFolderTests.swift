import Foundation
import GRDB
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A slow or hung cloud folder (a network mount) never holds up a save, and a busy store says
/// who keeps it busy.
@Suite("A slow cloud folder and a busy store")
struct SlowCloudFolderTests {
    let directory = TemporaryDirectory("slow-cloud")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    /// Starts `grocery-dude` without waiting for it.
    func start(_ device: CommandRunner, _ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["--data-dir", device.dataDirectory, "--device", device.device] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            device.environment.merging(environment) { _, new in new }
        ) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `pid` is stopped (state T in /proc).
    func waitUntilStopped(_ pid: Int32) throws {
        try Poll.until(
            every: 0.01, reading: { (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "" },
            { "process \(pid) stopped (state T); /proc says: \($0)" }
        ) { $0.split(separator: ")").last?.split(separator: " ").first == "T" }
    }

    @Test func aSaveGoesOnWhileAnotherProcessHangsWritingToTheCloudFolder() throws {
        let a = device("a")
        let b = device("b")
        try a.output(["cloud", "enable"])
        try b.output(["cloud", "enable"])
        // The first save is committed; its process then hangs as on a dead network mount.
        let hung = try start(
            a, ["item", "add", "Written before the hang"], environment: ["GROCERY_DUDE_FAULT": "before-log-write"])
        defer { if hung.isRunning { kill(hung.processIdentifier, SIGKILL) } }
        try waitUntilStopped(hung.processIdentifier)

        let started = Date()
        let second = try a.run(["item", "add", "Written during the hang"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Date().timeIntervalSince(started) < 8, "the save did not wait for SQLite's busy timeout")
        #expect(
            second.stderr.contains("process \(hung.processIdentifier)"),
            "it says who publishes its change: \(second.stderr)")
        #expect(try a.itemNames() == ["Written before the hang", "Written during the hang"])

        // The mount comes back: the hung process publishes both saves.
        kill(hung.processIdentifier, SIGCONT)
        hung.waitUntilExit()
        #expect(hung.terminationStatus == 0)
        try b.output(["cloud", "sync"])
        #expect(try b.itemNames() == ["Written before the hang", "Written during the hang"])
        let status =
            try JSONSerialization.jsonObject(with: Data(try a.output(["cloud", "status", "--json"]).utf8))
            as? [String: Any]
        #expect(status?["pendingExport"] as? Int == 0, "\(String(describing: status))")
    }

    @Test func aBusyStoreNamesTheProcessThatHoldsIt() throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Bread"])
        let store = directory.url.appendingPathComponent("devices/a/ubiquity/default/GroceryDude/store.sqlite")
        let holder = try DatabaseQueue(path: store.path)
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            let result = try a.run(["item", "add", "Milk"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("is busy: process \(getpid())"), "\(result.stderr)")
            #expect(
                result.stderr.contains("note: waiting for process \(getpid())"),
                "it said at once who it waits for: \(result.stderr)")
        }
        try a.output(["item", "add", "Milk"])
        #expect(try a.itemNames() == ["Bread", "Milk"])
    }
}
