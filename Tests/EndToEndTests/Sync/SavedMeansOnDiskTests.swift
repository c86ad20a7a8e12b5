import Foundation
import GRDB
import TestSupport
import Testing

/// "Added" means on disk: when a command prints its result, the save's write-ahead frames were
/// synced, also while another process reads the store (which holds the closing checkpoint back).
@Suite("Saved means on disk")
struct SavedMeansOnDiskTests {
    let directory = TemporaryDirectory("saved-on-disk")

    /// Where `strace` is installed (`scripts/install-deps.sh` installs it).
    static let strace = "/usr/bin/strace"

    @Test(arguments: [false, true])
    func aSaveIsSyncedWhileAnotherProcessReads(cloud: Bool) throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.strace),
            "\(Self.strace) is missing: run scripts/install-deps.sh")
        let device = CommandRunner(
            dataDirectory: directory.path, device: "a", environment: CommandRunner.withoutDefaultData)
        if cloud { try device.output(["cloud", "enable"]) }
        try device.output(["item", "add", "Bread"])
        let file =
            cloud
            ? directory.url.appendingPathComponent("devices/a/ubiquity/default/GroceryDude/store.sqlite")
            : directory.url.appendingPathComponent("devices/a/local/GroceryDude.sqlite")
        let trace = directory.url.appendingPathComponent("trace-\(cloud).txt")

        // This process holds a read transaction for as long as the command runs.
        let reader = try DatabaseQueue(path: file.path)
        let result = try reader.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM item") == 1)
            return try device.run(
                ["item", "add", "Milk"],
                wrappedIn: [
                    Self.strace, "-f", "-o", trace.path,
                    "-e", "trace=openat,pwrite64,write,fsync,fdatasync",
                ])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Added \"Milk\""))
        #expect(!result.stderr.contains("waiting for process"), "a reader never makes a save wait: \(result.stderr)")

        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let writes = SyscallTrace(lines: lines, path: file.path + "-wal")
        #expect(writes.lastWrite != nil, "the save wrote its write-ahead frames")
        if let lastWrite = writes.lastWrite {
            #expect(
                writes.syncs.contains { $0 > lastWrite }, "the write-ahead log is synced after the save's last write")
        }
        // The save is there for the reader once its transaction ends.
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 2)
    }
}

/// The writes and syncs of one file in an `strace -f` output: line numbers, in order.
struct SyscallTrace {
    var lastWrite: Int?
    var syncs: [Int] = []

    init(lines: [String], path: String) {
        // "<pid>  openat(AT_FDCWD, \"…-wal\", …) = 6": the file's descriptor, per process.
        var descriptors: Set<String> = []
        for (number, line) in lines.enumerated() {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2 else { continue }
            let pid = String(parts[0])
            let call = parts[1].trimmingCharacters(in: .whitespaces)
            if call.hasPrefix("openat("), call.contains("\"\(path)\""),
                let fd = call.split(separator: "=").last?
                    .trimmingCharacters(in: .whitespaces), Int(fd) != nil
            {
                descriptors.insert("\(pid) \(fd)")
                continue
            }
            for name in ["pwrite64(", "write(", "fdatasync(", "fsync("] where call.hasPrefix(name) {
                let fd = call.dropFirst(name.count).prefix { $0.isNumber }
                guard descriptors.contains("\(pid) \(fd)") else { continue }
                if name.contains("sync") { syncs.append(number) } else { lastWrite = number }
            }
        }
    }
}
