import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Copies merged by a deduplication are one object on every peer, whatever order the merges,
/// the edits made elsewhere meanwhile, and the deletes arrive in. Each peer has its own replica
/// of the cloud folder; the test says which peer's logs reach which replica, and when.
@Suite("Merged copies")
struct MergedCopiesTests {
    let clock = TestClock()
    let replicas = (0..<5).map { _ in TemporaryDirectory("merge-replica") }

    /// Peers p1…pN with IDs 1111…, 2222…: an object made on p1 has a smaller ID than one made on p2.
    func peers(_ count: Int) throws -> [TestPeer] {
        try (0..<count).map { index in
            try TestPeer(
                name: "p\(index + 1)", prefix: String(repeating: "\(index + 1)", count: 8), cloud: replicas[index].url,
                clock: clock)
        }
    }

    /// Copies the files `writer` published (logs, baselines) into `peer`'s replica, then lets it import.
    func deliver(_ writer: TestPeer, to peer: TestPeer) throws {
        try writer.sync.exportPending()
        let root = writer.cloud.path
        for path in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? []
        where path.contains("/peer-\(writer.name)/") && (path.hasSuffix(".gdlog") || path.hasSuffix(".gdbase")) {
            let target = peer.cloud.appendingPathComponent(path)
            guard !FileManager.default.fileExists(atPath: target.path) else { continue }
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: writer.cloud.appendingPathComponent(path), to: target)
        }
        _ = try peer.sync.importPending()
    }

    /// Every peer's files to every other peer.
    func deliverAll(_ peers: [TestPeer]) throws {
        for writer in peers { for peer in peers where peer !== writer { try deliver(writer, to: peer) } }
    }

    func insert(_ peer: TestPeer, _ entity: String, _ values: [String: PropertyValue]) throws -> GlobalID {
        clock.advance(by: 1)
        return try peer.store.save(author: "add") { try $0.insert(entity, values: values) }
    }

    func update(_ peer: TestPeer, _ entity: String, _ id: GlobalID, _ values: [String: PropertyValue]) throws {
        clock.advance(by: 1)
        _ = try peer.store.save(author: "edit") { try $0.update(entity, id: id, values: values) }
    }

    struct Note: Equatable {
        var id: String, title: String, count: Int, pinned: Bool, folder: String?
    }

    func notes(_ peer: TestPeer) throws -> [Note] {
        try peer.store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, title, count, pinned, folder FROM note ORDER BY id").map { row in
                Note(
                    id: row["id"], title: row["title"], count: row["count"], pinned: row["pinned"],
                    folder: row["folder"])
            }
        }
    }

    func expectConverged(_ peers: [TestPeer], _ comment: Comment? = nil) throws {
        let reference = try peers[0].contents()
        for peer in peers.dropFirst() {
            #expect(
                try peer.contents() == reference,
                "\(peer.name) differs from \(peers[0].name) \(comment?.description ?? "")")
        }
        for peer in peers { try peer.sync.exportPending() }
        let digests = try peers.map { try #require($0.sync.publishDigest(force: true).digest).top }
        #expect(Set(digests).count == 1, "digests differ \(comment?.description ?? "")")
    }

    // MARK: - Edits to a copy merged away

    /// p2 edits its copy while p1, not having seen the edit, merges that copy away. Observers
    /// receive the merge and the edit in one order or the other; the edit lands on the survivor
    /// everywhere.
    @Test(arguments: [false, true])
    func anEditToACopyMergedAwayLandsOnTheSurvivorInEitherOrder(editedBeforeTheMerge: Bool) throws {
        let all = try peers(4)
        let (p1, p2, observer1, observer2) = (all[0], all[1], all[2], all[3])
        let kept = try insert(p1, "Note", ["title": .string("Milk"), "count": .integer(1)])
        let merged = try insert(p2, "Note", ["title": .string("milk")])
        try deliverAll([p1, p2])
        if editedBeforeTheMerge { try update(p2, "Note", merged, ["count": .integer(7)]) }
        clock.advance(by: 1)
        let report = try Deduplicator(store: p1.store).run()
        #expect(report.merges.map(\.winner) == [kept] && report.merges.map(\.losers) == [[merged]])
        if !editedBeforeTheMerge { try update(p2, "Note", merged, ["count": .integer(7)]) }

        try deliver(p1, to: observer1)  // the merge first
        try deliver(p2, to: observer1)  // then the edit
        try deliver(p2, to: observer2)  // the edit first
        try deliver(p1, to: observer2)  // then the merge
        try deliverAll([p1, p2])
        for peer in all {
            let rows = try notes(peer)
            #expect(rows.count == 1, "\(peer.name)")
            #expect(rows.first?.id == kept.description && rows.first?.count == 7, "\(peer.name): \(rows)")
            #expect(try Deduplicator(store: peer.store).run().merges.isEmpty)
        }
        try expectConverged(all)
    }

    /// A later edit of the survivor wins over an earlier one of the copy, whatever arrives first.
    @Test func theNewestEditOfAnyCopyWinsPropertyByProperty() throws {
        let all = try peers(3)
        let (p1, p2, observer) = (all[0], all[1], all[2])
        let kept = try insert(p1, "Note", ["title": .string("Tea")])
        let merged = try insert(p2, "Note", ["title": .string("TEA")])
        try deliverAll([p1, p2])
        try update(p2, "Note", merged, ["count": .integer(3), "pinned": .bool(true)])
        try update(p1, "Note", kept, ["count": .integer(5)])
        _ = try Deduplicator(store: p1.store).run()
        try update(p2, "Note", merged, ["title": .string("Green tea")])
        try deliver(p2, to: observer)
        try deliver(p1, to: observer)
        try deliverAll([p1, p2])
        for peer in all {
            let rows = try notes(peer)
            #expect(rows.count == 1)
            let note = try #require(rows.first)
            #expect(note.id == kept.description)
            #expect(note.count == 5 && note.pinned && note.title == "Green tea", "\(peer.name): \(rows)")
        }
        try expectConverged(all)
    }

    // MARK: - Concurrent deduplications

    /// Two peers that have seen different things deduplicate at once: p1 sees "kg" used by three
    /// notes, p2 sees "KG" used by two. Both keep the copy with the smaller ID, so nothing is
    /// deleted twice: after syncing both ways there is one folder, every note points at it, and
    /// every edit of either copy of "Milk" is there.
    @Test func twoPeersWithDifferentViewsDeduplicatingAtOnceKeepOneCopyWithEverything() throws {
        let all = try peers(2)
        let (p1, p2) = (all[0], all[1])
        let kg = try insert(p1, "Folder", ["name": .string("kg")])
        let kgUpper = try insert(p2, "Folder", ["name": .string("KG")])
        let milk1 = try insert(p1, "Note", ["title": .string("Milk")])
        let milk2 = try insert(p2, "Note", ["title": .string("MILK")])
        try deliverAll(all)
        // Apart: each uses its own spelling and edits its own copy of Milk.
        for n in 0..<3 { _ = try insert(p1, "Note", ["title": .string("On p1 \(n)"), "folder": .reference(kg)]) }
        for n in 0..<2 { _ = try insert(p2, "Note", ["title": .string("On p2 \(n)"), "folder": .reference(kgUpper)]) }
        try update(p1, "Note", milk1, ["pinned": .bool(true), "folder": .reference(kg)])
        try update(p2, "Note", milk2, ["count": .integer(4)])
        let one = try Deduplicator(store: p1.store).run()
        let two = try Deduplicator(store: p2.store).run()
        #expect(one.merges.map(\.winner).sorted() == [kg, milk1] && two.merges.map(\.winner).sorted() == [kg, milk1])
        #expect(one.merges.first { $0.entity == "Folder" }?.value == "kg")
        #expect(two.merges.first { $0.entity == "Folder" }?.value == "KG")

        try deliverAll(all)
        try deliverAll(all)
        for peer in all {
            let folders = try peer.store.read { db in try Row.fetchAll(db, sql: "SELECT id, name FROM folder") }
            #expect(folders.count == 1 && folders.first?["id"] == kg.description, "\(peer.name): \(folders)")
            let rows = try notes(peer)
            #expect(rows.count == 6)
            #expect(
                rows.allSatisfy { $0.folder == kg.description },
                "\(peer.name): every note points at the one folder: \(rows)")
            let milk = try #require(rows.first { $0.id == milk1.description })
            #expect(milk.pinned && milk.count == 4)
        }
        try expectConverged(all)
    }

    /// The spelling a deduplication chose is written just after the spellings it chose among:
    /// a rename made elsewhere before the merge was seen, but after those, still wins.
    @Test func aRenameMadeElsewhereWinsOverTheSpellingAMergeChose() throws {
        let all = try peers(2)
        let (p1, p2) = (all[0], all[1])
        let kept = try insert(p1, "Folder", ["name": .string("kg")])
        _ = try insert(p2, "Folder", ["name": .string("KG")])
        _ = try insert(p1, "Note", ["title": .string("Flour"), "folder": .reference(kept)])
        try deliverAll(all)
        try update(p2, "Folder", kept, ["name": .string("Kilograms")])
        clock.advance(by: 60)
        #expect(try Deduplicator(store: p1.store).run().merges.first?.value == "kg")
        try deliverAll(all)
        for peer in all {
            #expect(
                try peer.store.read { db in try String.fetchAll(db, sql: "SELECT name FROM folder") } == ["Kilograms"])
        }
        try expectConverged(all)
    }

    // MARK: - Chains, deletes, late references

    /// Z merged into Y on one peer, Y into X on another, while a third renames Z and points a
    /// note at it. Whatever order an observer gets them in, all of it ends on X.
    @Test func chainsOfMergesResolveInAnyOrder() throws {
        let all = try peers(5)
        let (p1, p2, p3) = (all[0], all[1], all[2])
        let x = try insert(p1, "Folder", ["name": .string("Pantry")])
        _ = try insert(p2, "Folder", ["name": .string("pantry")])
        let z = try insert(p3, "Folder", ["name": .string("PANTRY")])
        try deliver(p2, to: p1)  // p1 knows X and Y
        try deliver(p3, to: p2)  // p2 knows Y and Z
        _ = try Deduplicator(store: p2.store).run()  // Z into Y
        _ = try Deduplicator(store: p1.store).run()  // Y into X
        try update(p3, "Folder", z, ["name": .string("Larder")])
        let note = try insert(p3, "Note", ["title": .string("Rice"), "folder": .reference(z)])
        for (observer, order) in [(all[3], [p1, p2, p3]), (all[4], [p3, p2, p1])] {
            for writer in order { try deliver(writer, to: observer) }
        }
        try deliverAll(Array(all.prefix(3)))
        for peer in all {
            let folders = try peer.store.read { db in try Row.fetchAll(db, sql: "SELECT id, name FROM folder") }
            #expect(
                folders.map { $0["id"] as String } == [x.description] && folders.first?["name"] == "Larder",
                "\(peer.name): \(folders)")
            #expect(try notes(peer).first { $0.id == note.description }?.folder == x.description, "\(peer.name)")
        }
        try expectConverged(all)
    }

    /// A copy deleted on a peer that had not seen it merged: the merged object is deleted on
    /// every peer, in either order (a delete is final, and they are one object).
    @Test func aDeleteOfAnyCopyDeletesTheMergedObjectInEitherOrder() throws {
        let all = try peers(4)
        let (p1, p2) = (all[0], all[1])
        _ = try insert(p1, "Note", ["title": .string("Eggs")])
        let merged = try insert(p2, "Note", ["title": .string("eggs")])
        try deliverAll([p1, p2])
        _ = try Deduplicator(store: p1.store).run()
        clock.advance(by: 1)
        try p2.store.save(author: "rm") { try $0.delete("Note", id: merged) }
        try deliver(p1, to: all[2])
        try deliver(p2, to: all[2])
        try deliver(p2, to: all[3])
        try deliver(p1, to: all[3])
        try deliverAll([p1, p2])
        for peer in all { #expect(try notes(peer).isEmpty, "\(peer.name)") }
        try expectConverged(all)
    }

    /// A new peer that starts from a baseline learns the merges with it: an edit of a merged
    /// copy that arrives afterwards still lands on the survivor.
    @Test func aBaselineCarriesTheMerges() throws {
        let all = try peers(3)
        let (p1, p2, newcomer) = (all[0], all[1], all[2])
        let kept = try insert(p1, "Note", ["title": .string("Bread")])
        let merged = try insert(p2, "Note", ["title": .string("bread")])
        try deliverAll([p1, p2])
        _ = try Deduplicator(store: p1.store).run()
        try update(p2, "Note", merged, ["count": .integer(9)])
        try p1.sync.writeBaseline()
        try p1.sync.pruneCoveredLogs(gracePeriod: 0)
        try deliver(p1, to: newcomer)
        #expect(try notes(newcomer).map(\.id) == [kept.description])
        let tombstone = try newcomer.store.read { db in
            try String.fetchOne(
                db, sql: "SELECT mergedInto FROM ubiquity_tombstone WHERE objectID = ?", arguments: [merged.description]
            )
        }
        #expect(tombstone == kept.description)
        try deliver(p2, to: newcomer)
        #expect(try notes(newcomer).first?.count == 9)
        try deliverAll([p1, p2])
        try expectConverged(all)
    }

    // MARK: - The record

    @Test func aMergeTravelsInTheRecordAndRecordsWithoutMergesReadAsBefore() throws {
        let object = ObjectID(entity: "Folder", id: GlobalID("22222222-0000-4000-8000-000000000001")!)
        let into = GlobalID("11111111-0000-4000-8000-000000000001")!
        let reading = HLC(wall: 1_800_000_000_000, counter: 3, peer: "peer-p1")
        let record = TransactionRecord(
            transactionID: into, timestamp: Date(timeIntervalSince1970: 1_800_000_000), author: "dedupe",
            inserted: [], updated: [], deleted: [object],
            merged: [ObjectMerge(object: object, into: into, chosen: ["name": .string("kg")], reading: reading)],
            clock: reading)
        #expect(try TransactionRecord(jsonData: record.jsonData()) == record)
        #expect(try JSONDecoder().decode(TransactionRecord.self, from: record.jsonData()) == record)
        let plain = TransactionRecord(
            transactionID: into, timestamp: record.timestamp, author: "rm", inserted: [], updated: [],
            deleted: [object], clock: reading)
        #expect(
            !String(decoding: plain.jsonData(), as: UTF8.self).contains("merged"), "written as before merges existed")
        #expect(try TransactionRecord(jsonData: plain.jsonData()).merged.isEmpty)
    }

    /// A merge from a file is input: a copy merged into itself, chosen values that break their
    /// rules or come without a reading, an unknown entity — the log is refused.
    @Test func aMergeThatBreaksTheRulesIsRefused() throws {
        let schema = TestModel.schema(version: 2)
        let a = GlobalID("11111111-0000-4000-8000-000000000001")!
        let b = GlobalID("22222222-0000-4000-8000-000000000001")!
        let reading = HLC(wall: 1_800_000_000_000, counter: 0, peer: "peer-p1")
        func record(_ merge: ObjectMerge) -> TransactionRecord {
            TransactionRecord(
                transactionID: a, timestamp: Date(timeIntervalSince1970: 1_800_000_000), author: "dedupe",
                inserted: [], updated: [], deleted: [merge.object], merged: [merge], clock: reading)
        }
        let folder = ObjectID(entity: "Folder", id: b)
        #expect(throws: Never.self) {
            try schema.check(
                record(ObjectMerge(object: folder, into: a, chosen: ["name": .string("kg")], reading: reading)))
        }
        for (merge, reason) in [
            (ObjectMerge(object: folder, into: b), "into itself"),
            (ObjectMerge(object: folder, into: a, chosen: ["name": .integer(3)], reading: reading), "is not a string"),
            (ObjectMerge(object: folder, into: a, chosen: ["name": .string("kg")]), "without a reading"),
            (ObjectMerge(object: ObjectID(entity: "Shelf", id: b), into: a), "unknown entity"),
            (
                ObjectMerge(
                    object: folder, into: a, chosen: ["name": .string("kg")],
                    reading: HLC(wall: -1, counter: 0, peer: "p")), "not a valid reading"
            ),
        ] {
            let error = #expect(throws: RuleViolation.self, "\(reason)") { try schema.check(record(merge)) }
            #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
        }
    }
}
