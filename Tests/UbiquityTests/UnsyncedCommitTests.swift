import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// An import commits without waiting for the disk (``ObjectStore/writeUnsynced(_:)``): a power
/// cut may lose it, whole, with the watermark that said what it applied; the next import then
/// applies those logs again, once. The writer is synced again for whatever follows (a save).
/// An export's mark stays synced; one lost in a crash between the log's publication and the mark
/// is made again by the next export, which finds the log and writes nothing.
@Suite("Imports commit without a sync; what a crash loses is made again")
struct UnsyncedCommitTests {
    let cloud = TemporaryDirectory("unsynced-import")
    let clock = TestClock()

    func synchronous(_ db: Database) throws -> Int? { try Int.fetchOne(db, sql: "PRAGMA synchronous") }

    @Test(arguments: [StoreConnections.single, .pooled])
    func theWriterIsSyncedAgainAfterAnUnsyncedTransaction(_ connections: StoreConnections) throws {
        let folder = TemporaryDirectory("unsynced-writer")
        let store = try ObjectStore(
            path: folder.file("store.sqlite").path, model: TestModel.definition, version: 2, connections: connections)
        #expect(try store.writeUnsynced { db in try synchronous(db) } == 1, "NORMAL for the transaction")
        #expect(try store.write { db in try synchronous(db) } == 2, "FULL again for the next one")
        struct Refused: Error {}
        #expect(throws: Refused.self) { try store.writeUnsynced { _ in throw Refused() } }
        #expect(try store.write { db in try synchronous(db) } == 2, "FULL again after one that failed")
        try store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 1)
        try store.close()
    }

    /// A power cut can take from a store only what no sync reached: the import's transaction and
    /// anything after it. The store is put back as it was before the import (its file copied
    /// while closed), which is the most a power cut can leave.
    @Test func anImportLostInAPowerCutIsAppliedAgainOnce() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        for title in ["Milk", "Eggs", "Bread"] {
            try a.store.save(author: "add") { _ = try $0.insert("Note", values: ["title": .string(title)]) }
            #expect(try a.sync.exportPending() == 1)
        }
        let saved = try copy(b, as: "before-import.sqlite")
        #expect(try b.sync.importPending().appliedLogs == 3)
        #expect(try b.contents() == (try a.contents()))

        try restore(b, from: saved)
        #expect(try b.contents().isEmpty, "the import is lost whole, its watermark with it")
        #expect(try b.sync.importPending().appliedLogs == 3)
        #expect(try b.contents() == (try a.contents()), "each note once")
        #expect(try b.sync.watermark(of: "peer-a") == 3)
        #expect(try b.sync.importPending().appliedLogs == 0)
    }

    /// Puts `peer`'s store back as it was when `copy` was taken: what a power cut leaves of
    /// the commits after the last one synced.
    func restore(_ peer: TestPeer, from copy: URL) throws {
        try peer.store.close()
        let file = peer.directory.file("store.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try FileManager.default.copyItem(at: copy, to: file)
        try peer.restart()
    }

    /// A copy of `peer`'s store as it is now (closed, so that the file alone holds it), reopened.
    func copy(_ peer: TestPeer, as name: String) throws -> URL {
        let copy = peer.directory.file(name)
        try peer.store.close()
        try FileManager.default.copyItem(at: peer.directory.file("store.sqlite"), to: copy)
        try peer.restart()
        return copy
    }

    /// A crash after the log is published, before its mark commits.
    @Test func anExportMarkLostInACrashIsMadeAgainWithoutANewLog() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        try a.store.save(author: "add") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let saved = try copy(a, as: "saved.sqlite")
        #expect(try a.sync.exportPending() == 1)
        let logs = a.sync.layout.sequenceNumbers(of: "peer-a")
        #expect(logs == [1])

        try restore(a, from: saved)
        #expect(try a.sync.pendingExports() == 1, "the mark is lost, the log is published")
        _ = try a.sync.exportPending()
        #expect(try a.sync.pendingExports() == 0)
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a") == logs, "no second log of the same save")
        try a.store.save(author: "add") { _ = try $0.insert("Note", values: ["title": .string("Eggs")]) }
        #expect(try a.sync.exportPending() == 1)
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a") == [1, 2])
        #expect(try b.sync.importPending().appliedLogs == 2)
        #expect(try b.contents() == (try a.contents()))
    }
}
