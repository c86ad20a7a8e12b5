import Foundation
import TestSupport
import Testing

@testable import Ubiquity

/// The logs a folder watcher names, imported without a survey of the cloud folder
/// (``CloudSync/importArrivedLogs(_:)``): only when each is next for its peer; anything else is
/// left to a full import, with nothing applied.
@Suite("Logs imported by the names the watcher told")
struct ArrivedLogsTests {
    let cloud = TemporaryDirectory("arrived")
    let clock = TestClock()

    private func saveNotes(_ peer: TestPeer, _ titles: [String]) throws {
        for title in titles {
            _ = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        try peer.sync.exportPending()
    }

    private func name(_ seq: Int64, of peer: String = "peer-a") -> String {
        "\(peer)/\(CloudLayout.logName(seq))"
    }

    @Test func theNextLogsAreImportedAloneAndNeverTwice() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try b.sync.importPending()
        try saveNotes(a, ["Milk", "Eggs", "Bread"])

        // Told twice (the link and the file's close), out of order: each log once.
        let first = try #require(try b.sync.importArrivedLogs([name(2), name(1), name(1)]))
        #expect(first.appliedLogs == 2)
        #expect(first.changes.inserted.count == 2)
        #expect(try b.sync.watermark(of: "peer-a") == 2)
        let again = try #require(try b.sync.importArrivedLogs([name(1), name(2)]))
        #expect(again.appliedLogs == 0 && !again.changedSomething)
        let third = try #require(try b.sync.importArrivedLogs([name(2), name(3)]))
        #expect(third.appliedLogs == 1)
        #expect(try b.contents() == (try a.contents()))
        #expect(try b.sync.importPending().appliedLogs == 0, "a full import finds nothing left")
    }

    @Test func anythingButTheNextLogsIsLeftToAFullImport() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        try saveNotes(a, ["Milk", "Eggs"])
        #expect(try b.sync.importArrivedLogs([name(1)]) == nil, "before this instance's first full import")
        _ = try b.sync.importPending()
        try saveNotes(a, ["Bread", "Butter"])

        #expect(try b.sync.importArrivedLogs([name(4)]) == nil, "log 3 is not applied: a gap")
        #expect(try b.sync.importArrivedLogs([name(3), name(5)]) == nil, "a gap between the logs named")
        #expect(try b.sync.watermark(of: "peer-a") == 2, "nothing applied")

        // Names a full import passes over too, and this device's own logs: nothing to do.
        try saveNotes(b, ["Jam"])
        let others = [
            "peer-a/.\(CloudLayout.logName(3)).tmp", "peer-a/#1234567", "peer-a/notes.txt", CloudLayout.logName(3),
            "peer-a/x/\(CloudLayout.logName(3))", "not a peer/\(CloudLayout.logName(1))", name(1, of: "peer-b"),
        ]
        let quiet = try #require(try b.sync.importArrivedLogs(others))
        #expect(!quiet.changedSomething)
        #expect(try b.sync.watermark(of: "peer-a") == 2)

        // A log that cannot be read: nothing applied, and the full import tells of it.
        let torn = a.sync.layout.logURL(peer: "peer-a", seq: 3)
        let bytes = try Data(contentsOf: torn)
        try bytes.prefix(bytes.count / 2).write(to: torn)
        #expect(try b.sync.importArrivedLogs([name(3), name(4)]) == nil)
        #expect(try b.sync.watermark(of: "peer-a") == 2)
        let full = try b.sync.importPending()
        #expect(full.appliedLogs == 0 && full.rejected.count == 1)
    }
}

@Suite("Folder watcher's events")
struct FolderWatcherEventsTests {
    let folder = TemporaryDirectory("watched")

    /// Starts a watcher on the folder with no rescan within a test's time, and hands each
    /// call's events to the test as they come.
    private func watch(_ root: URL) throws -> (FolderWatcher, () -> FolderEvents?) {
        let lock = NSLock()
        var calls: [FolderEvents] = []
        let called = DispatchSemaphore(value: 0)
        let watcher = FolderWatcher(root: root, rescanInterval: 600) { events in
            lock.withLock { calls.append(events) }
            called.signal()
        }
        try watcher.start()
        let next: () -> FolderEvents? = {
            guard called.wait(timeout: .now() + 60) == .success else { return nil }
            return lock.withLock { calls.removeFirst() }
        }
        return (watcher, next)
    }

    @Test func aFileIsNamedByItsPathUnderTheRootAndANewFolderIsNot() throws {
        let root = folder.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("peer-a"), withIntermediateDirectories: true)
        let (watcher, next) = try watch(root)
        defer { watcher.stop() }
        #expect(next() == FolderEvents(files: nil), "the first call, which reads everything")

        try Data("x".utf8).write(to: root.appendingPathComponent("peer-a/0000000001.gdlog"))
        var named: [String] = []
        while !named.contains("peer-a/0000000001.gdlog") {
            let events = try #require(next())
            named += try #require(events.files)
        }
        #expect(Set(named) == ["peer-a/0000000001.gdlog"])

        // A new folder: the files made in it before its watch began sent nothing.
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("peer-b"), withIntermediateDirectories: true)
        var sawNewFolder = false
        while !sawNewFolder {
            let events = try #require(next())
            sawNewFolder = events.files == nil
        }
    }
}
