import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// An import round applies the first batch of every peer with new logs in one transaction, as
/// many logs in all as a batch holds; a peer with more goes on in transactions of its own. Gaps
/// and refused logs hold back their peer only, whichever transaction its logs were in.
@Suite("Import rounds in batches")
struct ImportBatchTests {
    let cloud = TemporaryDirectory("batches")
    let clock = TestClock()

    /// Peers a, b and c save `count` notes each, one log per save.
    func peersWithLogs(_ count: Int) throws -> [TestPeer] {
        try ["a", "b", "c"].map { name in
            let peer = try TestPeer(
                name: name, prefix: String(repeating: name, count: 8), cloud: cloud.url, clock: clock)
            for index in 1...count {
                _ = try peer.store.save(author: "add") {
                    try $0.insert("Note", values: ["title": .string("\(name) \(index)")])
                }
                #expect(try peer.sync.exportPending() == 1)
            }
            return peer
        }
    }

    @Test("every log of every peer is applied, in batches shared and of their own", arguments: [1, 4, 7, 30])
    func everyLogApplied(batchSize: Int) throws {
        let peers = try peersWithLogs(7)
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        d.sync.batchSize = batchSize
        var notified = 0
        d.sync.observeImports { notified += $0.inserted.count }
        let report = try d.sync.importPending()
        #expect(report.appliedLogs == 21)
        #expect(report.waiting.isEmpty && report.rejected.isEmpty)
        #expect(report.changes.inserted.count == 21)
        #expect(notified == 21)
        _ = try peers[0].sync.sync()  // a now holds every peer's notes too
        #expect(try d.contents() == (try peers[0].contents()))
        for peer in peers { #expect(try d.sync.watermark(of: "peer-\(peer.name)") == 7) }
        #expect(try d.sync.importPending().appliedLogs == 0)
    }

    /// The peer batches an import applied, as the store counts them (one a peer and transaction).
    func importedBatches(_ peer: TestPeer) throws -> Int {
        try peer.store.read { db in
            try Int.fetchOne(
                db, sql: "SELECT CAST(value AS INTEGER) FROM ubiquity_metadata WHERE key = 'importedBatches'") ?? 0
        }
    }

    /// Counts the commits of a store's writer.
    final class Commits: TransactionObserver, @unchecked Sendable {
        var count = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { count += 1 }
        func databaseDidRollback(_ db: Database) {}

        init(_ peer: TestPeer) throws {
            try peer.store.write { db in db.add(transactionObserver: self, extent: .observerLifetime) }
        }
    }

    @Test("a transaction's logs stop at its bytes: the rest, each peer's too, go on in transactions of their own")
    func batchesStopAtTheirBytes() throws {
        let peers = try peersWithLogs(7)
        let whole = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        let wholeCommits = try Commits(whole)
        #expect(try whole.sync.importPending().appliedLogs == 21)
        #expect(try importedBatches(whole) == 3, "a batch a peer, all in one transaction")

        // One byte: a batch takes its first log and no more (it always takes one).
        let small = try TestPeer(name: "e", prefix: "eeeeeeee", cloud: cloud.url, clock: clock)
        small.sync.batchBytes = 1
        let report = try small.sync.importPending()
        #expect(report.appliedLogs == 21 && report.waiting.isEmpty && report.rejected.isEmpty)
        #expect(try importedBatches(small) == 21, "a batch a log")
        _ = try peers[0].sync.sync()
        #expect(try small.contents() == (try peers[0].contents()))
        for peer in peers { #expect(try small.sync.watermark(of: "peer-\(peer.name)") == 7) }

        // Room for three logs (they are alike in size): the first peer's three, then each peer's
        // rest in threes.
        let layout = peers[0].sync.layout
        let length = try LogFile.read(
            at: layout.logURL(peer: "peer-a", seq: 1), expecting: layout, peer: "peer-a", seq: 1
        ).header.length
        let some = try TestPeer(name: "f", prefix: "ffffffff", cloud: cloud.url, clock: clock)
        some.sync.batchBytes = 2 * length + 1
        let someCommits = try Commits(some)
        #expect(try some.sync.importPending().appliedLogs == 21)
        #expect(try importedBatches(some) == 9, "7 logs a peer in batches of 3, 3 and 1")
        // One transaction for all 21 logs against nine: the round's shared one took peer a's
        // first three only, as its bytes are shared by the peers in it.
        #expect(someCommits.count - wholeCommits.count == 8)
    }

    @Test("an import counts the logs it applied, not those another importer of the device applied meanwhile")
    func logsAppliedMeanwhileAreNotCounted() throws {
        let peers = try peersWithLogs(7)
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        // A second importer of the same store (the app and a command): it imports everything
        // once d's first batch (peer a's first two logs) is committed, before d's next batch.
        let other = CloudSync(store: d.store, layout: d.sync.layout, device: "d")
        d.sync.batchSize = 2
        var meanwhile: ImportReport?
        d.sync.observeImports { _ in
            if meanwhile == nil { meanwhile = try? other.importPending() }
        }
        let report = try d.sync.importPending()
        #expect(meanwhile?.appliedLogs == 19)
        #expect(report.appliedLogs == 2, "d applied its first batch only")
        #expect(report.appliedLogs + (meanwhile?.appliedLogs ?? 0) == 21)
        for peer in peers { #expect(try d.sync.watermark(of: "peer-\(peer.name)") == 7) }
        _ = try peers[0].sync.sync()
        #expect(try d.contents() == (try peers[0].contents()))
    }

    @Test("a gap holds back its peer only, wherever the batch ended", arguments: [2, 5, 30])
    func gapHoldsOnlyItsPeer(batchSize: Int) throws {
        let peers = try peersWithLogs(4)
        let missing = peers[1].sync.layout.logURL(peer: "peer-b", seq: 3)
        let aside = cloud.file("log-3-aside")
        try FileManager.default.moveItem(at: missing, to: aside)
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        d.sync.batchSize = batchSize
        let report = try d.sync.importPending()
        #expect(report.waiting == ["waiting for log 3 from peer peer-b"])
        #expect(report.appliedLogs == 10)
        #expect(try d.sync.watermark(of: "peer-a") == 4)
        #expect(try d.sync.watermark(of: "peer-b") == 2)
        #expect(try d.sync.watermark(of: "peer-c") == 4)
        try FileManager.default.moveItem(at: aside, to: missing)
        #expect(try d.sync.importPending().appliedLogs == 2)
        #expect(try d.sync.watermark(of: "peer-b") == 4)
    }

    @Test(
        "a refused log holds back its peer only; the others' logs in the same transaction stay applied",
        arguments: [2, 30])
    func refusalHoldsOnlyItsPeer(batchSize: Int) throws {
        let peers = try peersWithLogs(3)
        // Peer a's second log cut short: its checksum no longer matches.
        let damaged = peers[0].sync.layout.logURL(peer: "peer-a", seq: 2)
        let bytes = try Data(contentsOf: damaged)
        try bytes.prefix(bytes.count - 5).write(to: damaged)
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        d.sync.batchSize = batchSize
        let report = try d.sync.importPending()
        #expect(report.rejected.count == 1)
        #expect(report.refused.first?.peer == "peer-a" && report.refused.first?.seq == 2)
        #expect(report.appliedLogs == 7)
        #expect(try d.sync.watermark(of: "peer-a") == 1)
        #expect(try d.sync.watermark(of: "peer-b") == 3)
        #expect(try d.sync.watermark(of: "peer-c") == 3)
    }
}

extension ImportBatchTests {
    /// Peer a's log 3: a new note the store takes, then an update it cannot take (updates are
    /// applied after inserts). `d`'s trigger stands for any constraint of a store.
    func poisonedThirdLog(_ peers: [TestPeer], into d: TestPeer) throws {
        let a = peers[0]
        let first = try #require(try a.ids(of: "note").first)
        try a.store.save(author: "edit") {
            _ = try $0.insert("Note", values: ["title": .string("taken")])
            _ = try $0.update("Note", id: first, values: ["title": .string("poison")])
        }
        #expect(try a.sync.exportPending() == 1)
        try d.store.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER poison BEFORE UPDATE ON note WHEN NEW.title = 'poison'
                    BEGIN SELECT RAISE(ABORT, 'poisoned'); END
                    """)
        }
    }

    @Test(
        "a log the store refuses part-way leaves nothing of itself; the logs before it and the other peers' stay applied",
        arguments: [2, 30])
    func aLogRefusedPartWayIsUndoneWhole(batchSize: Int) throws {
        let peers = try peersWithLogs(2)
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        try poisonedThirdLog(peers, into: d)
        for peer in peers[1...] {
            try peer.store.save(author: "add") {
                _ = try $0.insert("Note", values: ["title": .string("\(peer.name) 3")])
            }
            #expect(try peer.sync.exportPending() == 1)
        }
        d.sync.batchSize = batchSize
        var notified = 0
        d.sync.observeImports { notified += $0.inserted.count }
        let report = try d.sync.importPending()
        #expect(report.refused.map { "\($0.peer) \($0.seq)" } == ["peer-a 3"])
        #expect(report.rejected.first?.contains("the store cannot take it: poisoned") == true, "\(report.rejected)")
        #expect(report.appliedLogs == 8)
        #expect(try d.sync.watermark(of: "peer-a") == 2)
        #expect(try d.sync.watermark(of: "peer-b") == 3 && d.sync.watermark(of: "peer-c") == 3)
        let titles = try d.store.read { db in try String.fetchAll(db, sql: "SELECT title FROM note ORDER BY title") }
        #expect(titles == ["a 1", "a 2", "b 1", "b 2", "b 3", "c 1", "c 2", "c 3"], "nothing of a's third log")
        #expect(report.changes.inserted.count == 8)
        let remembered = try d.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.refusedFile)")
        }
        #expect(remembered == 1)
        #expect(notified == 8, "observers hear of what was committed only")
    }
}

/// An import asks the store once a log which of its objects have property clocks, and reads an
/// object's clocks only when it had some, or when the same log already merged something of it.
@Suite("Clocks read once a log")
struct ClocksReadOnceTests {
    let cloud = TemporaryDirectory("clocks-once")
    let clock = TestClock()

    /// A log of peer `x` holding `record`, sealed as a peer writes it.
    func write(_ record: TransactionRecord, seq: Int64, into layout: CloudLayout) throws {
        try layout.makeFolder(layout.peerFolder("peer-x"))
        try LogFile.encode(record, layout: layout, peer: "peer-x", device: "x", seq: seq).write(
            to: layout.logURL(peer: "peer-x", seq: seq))
    }

    func record(_ seconds: Int64, inserted: [ObjectChange], updated: [ObjectChange] = []) -> TransactionRecord {
        TransactionRecord(
            transactionID: GlobalID(UUID()), timestamp: Date(timeIntervalSince1970: 1_800_000_000), author: "x",
            inserted: inserted, updated: updated, deleted: [],
            clock: HLC(wall: 1_800_000_000_000 + seconds * 1000, counter: 0, peer: "peer-x"))
    }

    @Test func anObjectTwiceInOneLogAndAgainInTheNextIsOneRowWithEveryClock() throws {
        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        let id = GlobalID("0000000a-0000-4000-8000-000000000001")!
        let note = ObjectID(entity: "Note", id: id)
        // Inserted and updated in the same log: the update finds the clocks the insert wrote
        // (read as new before the log, the object is not new any more by then).
        try write(
            record(
                1, inserted: [ObjectChange(object: note, values: ["title": .string("first")])],
                updated: [ObjectChange(object: note, values: ["count": .integer(3)])]), seq: 1, into: d.sync.layout)
        // The next log: the object has clocks now, and its later reading wins over them.
        try write(
            record(2, inserted: [], updated: [ObjectChange(object: note, values: ["title": .string("second")])]),
            seq: 2, into: d.sync.layout)
        let report = try d.sync.importPending()
        #expect(report.appliedLogs == 2 && report.rejected.isEmpty, "\(report.rejected)")
        let row = try d.store.read { db in
            try Row.fetchOne(db, sql: "SELECT title, count FROM note WHERE id = ?", arguments: [id.description])
        }
        #expect(row.map { [$0[0] as String?, ($0[1] as Int?).map(String.init)] } == ["second", "3"])
        let clocks = try d.store.read { db in
            try PropertyClocks.clocks(of: id, in: d.store.schema.entity(named: "Note")!, db)
        }
        #expect(clocks["count"]?.wall == 1_800_000_001_000)
        #expect(clocks["title"]?.wall == 1_800_000_002_000)
        #expect(report.changes.inserted == [note])
    }
}
