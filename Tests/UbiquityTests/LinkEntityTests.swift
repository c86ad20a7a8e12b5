import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Unique keys of several parts and objects that belong to others (``LinkTestModel``): what an
/// aisle within its shop and an item's aisle in one shop need, shown on a model of their own.
@Suite("Links and keys of several parts")
struct LinkEntityTests {
    let cloud = TemporaryDirectory("links-cloud")
    let clock = TestClock()

    func peer(_ name: String, _ prefix: String, cloud: URL? = nil) throws -> TestPeer {
        try TestPeer(
            name: name, prefix: prefix, cloud: cloud ?? self.cloud.url, clock: clock,
            model: (LinkTestModel.definition, 1))
    }

    func insert(_ peer: TestPeer, _ entity: String, _ values: [String: PropertyValue]) throws -> GlobalID {
        clock.advance(by: 1)
        return try peer.store.save(author: "add") { try $0.insert(entity, values: values) }
    }

    func count(_ table: String, _ peer: TestPeer) throws -> Int {
        try peer.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    func rows(_ table: String, _ peer: TestPeer) throws -> [Row] {
        try peer.store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") }
    }

    @Test func textsAreUniqueWithinWhatTheyPointAt() throws {
        let a = try peer("a", "aaaaaaaa")
        let home = try insert(a, "Folder", ["name": .string("Home")])
        let work = try insert(a, "Folder", ["name": .string("Work")])
        let first = try insert(a, "Tag", ["name": .string("Urgent"), "folder": .reference(home)])
        _ = try insert(a, "Tag", ["name": .string(" URGENT"), "folder": .reference(home), "rank": .double(2)])
        let other = try insert(a, "Tag", ["name": .string("urgent"), "folder": .reference(work)])
        _ = try insert(a, "Tag", ["name": .string("Urgent")])  // no folder: half a key, never a duplicate
        let report = try Deduplicator(store: a.store).run()
        #expect(report.mergedCount == 1, "\(report)")
        #expect(report.merges.first?.winner == first)
        let tags = try rows("tag", a)
        #expect(tags.count == 3)
        #expect(tags.contains { $0["id"] == first.description && $0["rank"] == 2.0 }, "the survivor took the rank")
        #expect(tags.contains { $0["id"] == other.description }, "Work's tag is another key")
        let indexes = try a.store.read { db in
            try String?.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tag'")
                .compactMap { $0 }
        }
        #expect(indexes.contains { $0.contains("ubiquity_unique_key(\"name\"), \"folder\"") }, "\(indexes)")
    }

    /// Two devices file their own copy of a note in one folder; deduplication merges the notes,
    /// which makes the filings copies of each other: they merge too, on both, into one.
    @Test func linksThatBecomeCopiesWhenWhatTheyPointAtMergesAreMergedToo() throws {
        let a = try peer("a", "aaaaaaaa")
        let b = try peer("b", "bbbbbbbb")
        let folder = try insert(a, "Folder", ["name": .string("Home")])
        try a.sync.sync()
        try b.sync.sync()
        let noteA = try insert(a, "Note", ["title": .string("Milk")])
        _ = try insert(a, "Filing", ["note": .reference(noteA), "folder": .reference(folder), "starred": .bool(false)])
        let noteB = try insert(b, "Note", ["title": .string("milk")])
        _ = try insert(b, "Filing", ["note": .reference(noteB), "folder": .reference(folder), "starred": .bool(true)])
        try a.sync.sync()
        try b.sync.sync()
        try a.sync.sync()
        #expect(try count("filing", a) == 2 && count("filing", b) == 2)
        let report = try Deduplicator(store: b.store).run()
        #expect(report.merges.map(\.entity) == ["Note", "Filing"], "\(report)")
        try b.sync.sync()
        try a.sync.sync()
        #expect(try Deduplicator(store: a.store).run().mergedCount == 0, "b's merges reached a")
        for peer in [a, b] {
            let filings = try rows("filing", peer)
            #expect(filings.count == 1)
            #expect(filings.first?["note"] == noteA.description, "the note with the smaller ID holds it")
            #expect(filings.first?["starred"] == true, "the newest value of the copies")
        }
        #expect(try a.contents() == b.contents())
    }

    /// A folder removed on one device while the other files a note in it: on both, the folder's
    /// tags and every filing in it go with it, whichever arrives first — never a filing left
    /// pointing at nothing.
    @Test func whatBelongsToADeletedObjectGoesWithItOnEveryPeer() throws {
        let a = try peer("a", "aaaaaaaa")
        let b = try peer("b", "bbbbbbbb")
        let folder = try insert(a, "Folder", ["name": .string("Home")])
        let tag = try insert(a, "Tag", ["name": .string("Urgent"), "folder": .reference(folder)])
        let note = try insert(a, "Note", ["title": .string("Milk")])
        _ = try insert(
            a, "Filing", ["note": .reference(note), "folder": .reference(folder), "tag": .reference(tag)])
        try a.sync.sync()
        try b.sync.sync()
        clock.advance(by: 1)
        try a.store.save(author: "rm") { try $0.delete("Folder", id: folder) }
        #expect(try count("tag", a) == 0 && count("filing", a) == 0, "deleted with the folder here")
        let other = try insert(b, "Note", ["title": .string("Bread")])
        _ = try insert(b, "Filing", ["note": .reference(other), "folder": .reference(folder), "tag": .reference(tag)])
        try b.sync.exportPending()
        try a.sync.sync()  // b's filing arrives after the folder's delete
        try b.sync.sync()  // the delete arrives after b's filing
        for peer in [a, b] {
            #expect(try count("folder", peer) == 0 && count("tag", peer) == 0 && count("filing", peer) == 0)
            #expect(try count("note", peer) == 2, "notes do not belong to their filings")
        }
        #expect(try a.contents() == b.contents())
        // A filing's own delete takes nothing with it.
        let kept = try insert(a, "Folder", ["name": .string("Work")])
        let filing = try insert(a, "Filing", ["note": .reference(note), "folder": .reference(kept)])
        try a.store.save(author: "rm") { try $0.delete("Filing", id: filing) }
        #expect(try count("folder", a) == 1 && count("note", a) == 2)
    }

    /// Merging a store into another matches keys of several parts through what their
    /// references were matched to: nothing is copied twice.
    @Test func aSeedMatchesKeysOfSeveralParts() throws {
        let source = try peer("s", "aaaaaaaa", cloud: TemporaryDirectory("links-source").url)
        let target = try peer("t", "bbbbbbbb")
        let sourceFolder = try insert(source, "Folder", ["name": .string("Home")])
        let sourceTag = try insert(source, "Tag", ["name": .string("Urgent"), "folder": .reference(sourceFolder)])
        let sourceNote = try insert(source, "Note", ["title": .string("Milk")])
        _ = try insert(
            source, "Filing",
            ["note": .reference(sourceNote), "folder": .reference(sourceFolder), "tag": .reference(sourceTag)])
        _ = try insert(source, "Tag", ["name": .string("Later"), "folder": .reference(sourceFolder)])
        let folder = try insert(target, "Folder", ["name": .string("HOME")])
        let tag = try insert(target, "Tag", ["name": .string("urgent"), "folder": .reference(folder)])
        let note = try insert(target, "Note", ["title": .string("milk")])
        _ = try insert(target, "Filing", ["note": .reference(note), "folder": .reference(folder)])
        let counts = try StoreSeeder(source: source.store, target: target.store).run()
        #expect(counts.inserted == 1, "only the tag Later is new: \(counts)")
        #expect(try count("folder", target) == 1 && count("note", target) == 1 && count("filing", target) == 1)
        let tags = try rows("tag", target)
        #expect(tags.count == 2 && tags.allSatisfy { $0["folder"] == folder.description })
        let filing = try #require(try rows("filing", target).first)
        #expect(filing["tag"] == tag.description, "the filing took the tag it lacked, as matched")
        #expect(try Deduplicator(store: target.store).run().mergedCount == 0)
    }
}
