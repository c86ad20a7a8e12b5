import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Property clocks are written packed, each reading once with the properties that have it
/// (`ubiquity-v6`); rows in the older form, one reading a property, read the same.
@Suite("Property clocks: the packed form and the older one")
struct PackedClocksTests {
    let directory = TemporaryDirectory("packed-clocks")
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    /// The form stores before `ubiquity-v6` hold: `name=reading;…`, sorted by name.
    static func olderForm(_ clocks: [String: HLC]) -> String {
        clocks.keys.sorted().map { "\($0)=\(clocks[$0]!)" }.joined(separator: ";")
    }

    /// Rewrites the clocks of every row of `store` in the older form.
    static func rewriteInOlderForm(_ store: ObjectStore) throws {
        try store.write { db in
            for entity in store.schema.entities {
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, ubiquity_clocks FROM \(entity.table) WHERE ubiquity_clocks IS NOT NULL")
                for row in rows {
                    let text: String = row["ubiquity_clocks"]
                    try db.execute(
                        sql: "UPDATE \(entity.table) SET ubiquity_clocks = ? WHERE id = ?",
                        arguments: [olderForm(PropertyClocks.decode(text)), row["id"] as String])
                }
            }
        }
    }

    /// The clocks of every row that has some, by ID.
    static func clockTexts(_ store: ObjectStore) throws -> [String] {
        try store.read { db in
            let tables = store.schema.entities.map {
                "SELECT id, ubiquity_clocks FROM \($0.table) WHERE ubiquity_clocks IS NOT NULL"
            }
            return try String.fetchAll(
                db, sql: "SELECT ubiquity_clocks FROM (\(tables.joined(separator: " UNION ALL "))) ORDER BY id")
        }
    }

    static func note(_ store: ObjectStore) -> EntityDescription { store.schema.entity(named: "Note")! }

    @Test func eachReadingIsWrittenOnceWithItsPropertiesAndReadBack() {
        let a = HLC(wall: 1_800_000_000_000, counter: 3, peer: "peer-a")
        let b = HLC(wall: 5, counter: 0, peer: "peer-b")
        let clocks = ["quantity": a, "name": a, "listed": b, "modified": a]
        let text = PropertyClocks.encode(clocks)
        #expect(text == "\(b):listed;\(a):modified,name,quantity")
        #expect(PropertyClocks.decode(text) == clocks)
        #expect(PropertyClocks.encode(["name": a]) == "\(a):name")
        #expect(PropertyClocks.encode([:]) == "")
        #expect(PropertyClocks.decode("") == [:])
    }

    @Test func anInsertsNamesAtOneReadingAreWrittenAsTheDictionaryWouldBe() {
        let a = HLC(wall: 1_800_000_000_000, counter: 3, peer: "peer-a")
        for names in [[], ["name"], ["quantity", "name", "listed", "modified"], ["b", "a", "B", "é", "_"]] {
            let clocks = Dictionary(uniqueKeysWithValues: names.map { ($0, a) })
            #expect(PropertyClocks.encode(clocks.keys, at: a) == PropertyClocks.encode(clocks), "\(names)")
        }
    }

    @Test func theOlderFormAndRowsMixingBothReadTheSame() {
        let a = HLC(wall: 1_800_000_000_000, counter: 3, peer: "peer-a")
        let b = HLC(wall: 5, counter: 0, peer: "peer-b")
        let clocks = ["quantity": a, "name": a, "listed": b, "modified": a]
        #expect(PropertyClocks.decode(Self.olderForm(clocks)) == clocks)
        #expect(PropertyClocks.decode("listed=\(b);\(a):modified,name,quantity") == clocks)
        #expect(
            PropertyClocks.decode("\(a):name;junk;count=not a reading") == ["name": a],
            "what parses as neither is skipped")
    }

    /// A store as the build before `ubiquity-v6` left it: migrated up to `ubiquity-v5`, one note
    /// with its clock row in the older form.
    @Test func anOlderStoreIsMigratedWithoutRewritingAndItsRowsAreReadAndPackedWhenNextWritten() throws {
        let path = directory.file("store.sqlite").path
        let id = GlobalID("01234567-89ab-cdef-0123-456789abcdef")!
        let old = HLC(wall: 1_700_000_000_000, counter: 2, peer: "peer-old")
        let queue = try DatabaseQueue(path: path)
        try TestModel.definition.migrator(upTo: 2).migrate(queue, upTo: "ubiquity-v5")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO note (id, title, count, pinned) VALUES (?, 'Milk', 2, 0)", arguments: [id])
            try db.execute(
                sql: "INSERT INTO ubiquity_object_clock (objectID, clocks) VALUES (?, ?)",
                arguments: [id, Self.olderForm(["title": old, "count": old, "pinned": old])])
        }
        try queue.close()

        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2, peer: "peer-new", clock: clock)
        #expect(
            try store.read { db in try PropertyClocks.clocks(of: id, in: Self.note(store), db) } == [
                "title": old, "count": old, "pinned": old,
            ])
        #expect(
            try Self.clockTexts(store) == [Self.olderForm(["title": old, "count": old, "pinned": old])],
            "nothing rewritten")

        _ = try store.save(author: "t") { try $0.update("Note", id: id, values: ["count": .integer(3)]) }
        let clocks = try store.read { db in try PropertyClocks.clocks(of: id, in: Self.note(store), db) }
        let new = try #require(clocks["count"])
        #expect(new > old)
        // The save sets the note's modification date too.
        #expect(clocks == ["title": old, "count": new, "modified": new, "pinned": old])
        #expect(try Self.clockTexts(store) == ["\(new):count,modified;\(old):pinned,title"])
    }

    /// What an older build does with a store that has `ubiquity-v6`: it knows every migration
    /// up to `ubiquity-v5` and not this one, so it refuses the store rather than misreading it.
    @Test func aBuildWithoutTheMigrationRefusesTheStore() throws {
        let store = try ObjectStore(
            path: directory.file("store.sqlite").path, model: TestModel.definition, version: 2, clock: clock)
        var older = DatabaseMigrator()
        for identifier in ["ubiquity-v1"] + TestModel.definition.versions.map(\.migrationIdentifier)
            + ["ubiquity-v2", "ubiquity-v3", "ubiquity-v4", "ubiquity-v5"]
        {
            older.registerMigration(identifier) { _ in }
        }
        #expect(try store.read { db in try older.hasBeenSuperseded(db) })
        #expect(try store.read { db in try TestModel.definition.migrator(upTo: 2).hasBeenSuperseded(db) } == false)
    }

    /// Two peers edit the same note concurrently, one of them holding its clocks in the older
    /// form: the later write of each property wins on both, as with packed rows on both.
    @Test func mergesWithRowsOfBothFormsGiveTheSameResults() throws {
        func run(olderFormOnB: Bool) throws -> [String] {
            let cloud = TemporaryDirectory("cloud")
            let clock = TestClock()
            let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
            let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
            let note = try a.store.save(author: "t") {
                try $0.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)])
            }
            for _ in 0..<2 { for peer in [a, b] { try peer.sync.sync() } }
            if olderFormOnB {
                try Self.rewriteInOlderForm(b.store)
                #expect(try Self.clockTexts(b.store).allSatisfy { !$0.contains(":") })
            }
            clock.advance(by: 1)
            _ = try a.store.save(author: "t") {
                try $0.update("Note", id: note, values: ["title": .string("Eggs"), "count": .integer(5)])
            }
            clock.advance(by: 1)
            _ = try b.store.save(author: "t") { try $0.update("Note", id: note, values: ["title": .string("Bread")]) }
            for _ in 0..<2 { for peer in [a, b] { try peer.sync.sync() } }
            let contents = try a.contents()
            #expect(try b.contents() == contents)
            #expect(
                try a.store.read { db in try PropertyClocks.clocks(of: note, in: Self.note(a.store), db) }
                    == b.store.read { db in try PropertyClocks.clocks(of: note, in: Self.note(b.store), db) })
            for peer in [a, b] {
                let report = try peer.sync.verify()
                #expect(report.diverging.isEmpty, "\(peer.name): \(report)")
                #expect(
                    try peer.store.read { db in
                        try Row.fetchOne(db, sql: "SELECT title, count FROM note WHERE id = ?", arguments: [note])
                    } == ["title": "Bread", "count": 5])
            }
            return contents
        }
        #expect(try run(olderFormOnB: true) == run(olderFormOnB: false))
    }

    @Test func aDigestReadsBothFormsAlike() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try a.store.save(author: "t") { context in
            _ = try context.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)])
            _ = try context.insert("Folder", values: ["name": .string("Home")])
        }
        func digest() throws -> Digest {
            try a.store.read { db in try Digest.compute(schema: a.store.schema, applied: [:], db) }
        }
        let packed = try digest()
        try Self.rewriteInOlderForm(a.store)
        #expect(try Self.clockTexts(a.store).allSatisfy { $0.contains("=") && !$0.contains(":") })
        #expect(try digest().top == packed.top)
    }
}
