import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// IDs handed out from a list, in order: two saves may be given the same transaction ID.
final class ScriptedIDs: IDGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [GlobalID]

    init(_ ids: [GlobalID]) { self.ids = ids }

    func next() -> GlobalID { lock.withLock { ids.removeFirst() } }
}

/// The outbox numbers its rows itself (`ubiquity-v5`): no `AUTOINCREMENT`, no unique index on
/// transaction IDs. Numbers, and so change tokens, never go back or repeat: not when exported
/// rows are removed, not across a reopen, not across the migration of an older store.
@Suite("Outbox numbering and the change token")
struct OutboxNumberingTests {
    let directory = TemporaryDirectory("outbox")
    let clock = TestClock()

    func openStore(_ name: String = "store.sqlite", ids: any IDGenerator = SequentialIDs()) throws -> ObjectStore {
        try ObjectStore(
            path: directory.file(name).path, model: TestModel.definition, version: 2, clock: clock, ids: ids)
    }

    static func sequences(_ store: ObjectStore) throws -> [Int64] {
        try store.read { db in try Int64.fetchAll(db, sql: "SELECT seq FROM ubiquity_outbox ORDER BY seq") }
    }

    /// A store as the build before `ubiquity-v5` left it: migrated up to `ubiquity-v4`, its
    /// saves appended as that build did (numbered by `AUTOINCREMENT`), the first `exported`
    /// of them taken out as exported. Returns the records still pending, oldest first.
    func olderStore(at name: String, saves records: [TransactionRecord], exported: Int) throws -> [TransactionRecord] {
        let queue = try DatabaseQueue(path: directory.file(name).path)
        try TestModel.definition.migrator(upTo: 2).migrate(queue, upTo: "ubiquity-v4")
        try queue.write { db in
            #expect(try Row.fetchAll(db, sql: "PRAGMA index_list(ubiquity_outbox)").count == 1)
            for record in records {
                try db.execute(
                    sql:
                        "INSERT INTO ubiquity_outbox (transactionID, timestamp, modelVersion, payload) VALUES (?, ?, ?, ?)",
                    arguments: [
                        record.transactionID.description, record.timestamp.timeIntervalSince1970, 2, record.jsonData(),
                    ])
            }
            try db.execute(sql: "DELETE FROM ubiquity_outbox WHERE seq <= ?", arguments: [exported])
            #expect(
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'ubiquity_outbox'")
                    == Int64(records.count))
        }
        try queue.close()
        return Array(records.dropFirst(exported))
    }

    /// Records of real saves, made in a store of their own.
    func records(_ count: Int) throws -> [TransactionRecord] {
        let scratch = try openStore("scratch.sqlite", ids: SequentialIDs(prefix: "5c5c5c5c"))
        for index in 0..<count {
            _ = try scratch.save(author: "old build") {
                try $0.insert("Note", values: ["title": .string("Note \(index)")])
            }
        }
        return try scratch.outbox()
    }

    @Test func anOlderStoreKeepsItsPendingSavesInOrderAndItsTokenGoesOn() throws {
        let saved = try records(5)
        let pending = try olderStore(at: "store.sqlite", saves: saved, exported: 2)
        let store = try openStore()
        #expect(try store.outbox() == pending)
        #expect(try Self.sequences(store) == [3, 4, 5])
        // The token counted five saves before the migration: it does not go back.
        #expect(try store.changeCounts().saves == 5)
        let (indexes, sequenceRows, definition) = try store.read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA index_list(ubiquity_outbox)").count,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_sequence WHERE name = 'ubiquity_outbox'"),
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'ubiquity_outbox'")
            )
        }
        #expect(indexes == 0)
        #expect(sequenceRows == 0)
        #expect(definition?.contains("AUTOINCREMENT") == false)
        _ = try store.save(author: "new build") { try $0.insert("Note", values: ["title": .string("After")]) }
        #expect(try Self.sequences(store) == [3, 4, 5, 6])
        #expect(try store.changeCounts().saves == 6)
        #expect(try store.outbox().dropLast() == pending[...])
    }

    @Test func anOlderStoreWithEverySaveExportedGoesOnFromItsLastNumber() throws {
        _ = try olderStore(at: "store.sqlite", saves: try records(7), exported: 7)
        let store = try openStore()
        #expect(try store.outbox().isEmpty)
        #expect(try store.changeCounts().saves == 7)
        _ = try store.save(author: "new build") { try $0.insert("Note", values: ["title": .string("After")]) }
        #expect(try Self.sequences(store) == [8])
        #expect(try store.changeCounts().saves == 8)
    }

    @Test func anOlderStoreOpenedAgainIsNotMigratedTwice() throws {
        let pending = try olderStore(at: "store.sqlite", saves: try records(3), exported: 1)
        _ = try openStore()
        let store = try openStore()
        #expect(try store.outbox() == pending)
        #expect(try store.changeCounts().saves == 3)
    }

    @Test func theTokenNeverGoesBackWhenExportedSavesAreRemovedOrTheStoreIsReopened() throws {
        let cloud = TemporaryDirectory("cloud")
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        var tokens = [try peer.store.changeToken()]
        for index in 0..<3 {
            _ = try peer.store.save(author: "add") {
                try $0.insert("Note", values: ["title": .string("Note \(index)")])
            }
            tokens.append(try peer.store.changeToken())
        }
        #expect(try Self.sequences(peer.store) == [1, 2, 3])
        #expect(try peer.sync.exportPending() == 3)
        #expect(try peer.store.outbox().isEmpty)
        // The outbox is empty: its numbers are not given again, the token stays.
        #expect(try peer.store.changeToken() == tokens.last)
        try peer.restart()
        #expect(try peer.store.changeToken() == tokens.last)
        _ = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Later")]) }
        tokens.append(try peer.store.changeToken())
        #expect(try Self.sequences(peer.store) == [4])
        // One save, one step, whichever connection reads it.
        #expect(tokens == [0, 1, 2, 3, 4])
        try peer.restart()
        #expect(try peer.store.changeCounts().saves == 4)
        // Exported under the next log number, after the three before.
        #expect(try peer.sync.exportPending() == 1)
        #expect(try peer.sync.watermark(of: "peer-a") == 4)
    }

    /// Without a reopen, a save numbers its row after the last save's from memory
    /// (``RememberedSave``) only while nothing else committed: saves of another connection to
    /// the same file, exports that take rows out, and a save that failed all come between saves
    /// of one store, and the numbers still go on by one, never repeating.
    @Test func numbersGoOnWhateverCommitsBetweenTwoSaves() throws {
        let cloud = TemporaryDirectory("cloud")
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let other = try ObjectStore(
            path: peer.store.path, model: TestModel.definition, version: 2, peer: "peer-a",
            clock: clock, ids: SequentialIDs(prefix: "cccccccc"))
        var count = 0
        func save(_ store: ObjectStore) throws {
            count += 1
            _ = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Note \(count)")]) }
        }
        try save(peer.store)
        try save(peer.store)
        try save(other)
        try save(peer.store)
        #expect(try Self.sequences(peer.store) == [1, 2, 3, 4])
        #expect(try peer.sync.exportPending() == 4)
        #expect(try peer.store.outbox().isEmpty)
        try save(peer.store)
        try save(peer.store)
        #expect(try Self.sequences(peer.store) == [5, 6], "after the exported rows, not after the empty outbox")
        #expect(try peer.sync.exportPending() == 2)
        try save(other)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try peer.store.save(author: "t") { context in
                _ = try context.insert("Note", values: ["title": .string("Refused")])
                throw Refused()
            }
        }
        try save(peer.store)
        try save(peer.store)
        #expect(try Self.sequences(peer.store) == [7, 8, 9])
        #expect(try peer.store.changeCounts().saves == 9)
        #expect(try peer.sync.exportPending() == 3)
        #expect(try peer.sync.watermark(of: "peer-a") == 9, "every save exported under its own log number")
    }

    /// The case a number remembered wrongly would not fail loudly in: another connection numbers
    /// rows and takes them out (as its exporter does) between two saves of this store. The next
    /// save must not take the number of a row that is gone: the change token would not move for
    /// it, and a process polling the token would miss the save.
    @Test func aNumberGivenAndTakenOutByAnotherConnectionIsNotGivenAgain() throws {
        let store = try openStore()
        let other = try openStore(ids: SequentialIDs(prefix: "cccccccc"))
        _ = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        for title in ["Eggs", "Tea"] {
            _ = try other.save(author: "add") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        try other.write { db in
            for sequence in Int64(1)...3 { try Outbox.remove(sequence: sequence, db) }
        }
        _ = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Bread")]) }
        #expect(try Self.sequences(store) == [4])
        #expect(try store.changeCounts().saves == 4)
    }

    @Test func savesWithTheSameTransactionIDAreBothKept() throws {
        let transaction = GlobalID("7a7a7a7a-0000-4000-8000-000000000001")!
        let notes = (1...2).map { GlobalID("7b7b7b7b-0000-4000-8000-00000000000\($0)")! }
        // A save takes its objects' IDs first, then its transaction's.
        let store = try openStore(ids: ScriptedIDs([notes[0], transaction, notes[1], transaction]))
        for index in 0..<2 {
            _ = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Note \(index)")]) }
        }
        let outbox = try store.outbox()
        #expect(outbox.map(\.transactionID) == [transaction, transaction])
        #expect(outbox.map { $0.inserted.map(\.object.id) } == [[notes[0]], [notes[1]]])
        #expect(try Self.sequences(store) == [1, 2])
    }
}
