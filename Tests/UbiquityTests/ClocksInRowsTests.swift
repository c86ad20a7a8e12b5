import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Property clocks are a column of the object's row (`ubiquity-v7`), not a row of a table of
/// their own: a save writes no page of another B-tree for them.
@Suite("Property clocks in the objects' rows")
struct ClocksInRowsTests {
    let directory = TemporaryDirectory("clocks-in-rows")
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    static func clocksColumn(_ table: String, _ id: GlobalID, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT ubiquity_clocks FROM \(table) WHERE id = ?", arguments: [id])
    }

    /// A store as the build before `ubiquity-v7` left it: a note and a folder with their clock
    /// rows, a note without one (a plain store's row), and a clock row whose object no table holds.
    @Test func anOlderStoresClocksMoveIntoTheRowsAndNothingElseIsLost() throws {
        let path = directory.file("store.sqlite").path
        let note = GlobalID("01234567-89ab-cdef-0123-456789abcdef")!
        let folder = GlobalID("11234567-89ab-cdef-0123-456789abcdef")!
        let plain = GlobalID("21234567-89ab-cdef-0123-456789abcdef")!
        let orphan = GlobalID("31234567-89ab-cdef-0123-456789abcdef")!
        let old = HLC(wall: 1_700_000_000_000, counter: 2, peer: "peer-old")
        let noteClocks = "\(old):count,pinned,title"
        let folderClocks = "name=\(old)"
        let queue = try DatabaseQueue(path: path)
        try TestModel.definition.migrator(upTo: 2).migrate(queue, upTo: "ubiquity-v6")
        try queue.write { db in
            // The model's migrations of this build add the column; the older build's did not.
            for table in ["note", "folder", "attachment"] {
                try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN ubiquity_clocks")
            }
            try db.execute(
                sql: "INSERT INTO note (id, title, count, pinned) VALUES (?, 'Milk', 2, 0)", arguments: [note])
            try db.execute(
                sql: "INSERT INTO note (id, title, count, pinned) VALUES (?, 'Eggs', 1, 0)", arguments: [plain])
            try db.execute(sql: "INSERT INTO folder (id, name) VALUES (?, 'Home')", arguments: [folder])
            for (id, clocks) in [(note, noteClocks), (folder, folderClocks), (orphan, "\(old):title")] {
                try db.execute(
                    sql: "INSERT INTO ubiquity_object_clock (objectID, clocks) VALUES (?, ?)", arguments: [id, clocks])
            }
        }
        try queue.close()

        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2, peer: "peer-new", clock: clock)
        try store.read { (db: Database) throws -> Void in
            #expect(try Self.clocksColumn("note", note, db) == noteClocks, "moved as it was written")
            #expect(try Self.clocksColumn("folder", folder, db) == folderClocks)
            #expect(try Self.clocksColumn("note", plain, db) == nil)
            #expect(
                try String.fetchAll(db, sql: "SELECT objectID FROM ubiquity_unheld_clocks") == [orphan.description],
                "what no table holds stays")
            let noteEntity = try #require(store.schema.entity(named: "Note"))
            #expect(
                try PropertyClocks.clockRow(of: note, in: noteEntity, db) == [
                    "count": old, "pinned": old, "title": old,
                ])
            #expect(try PropertyClocks.clockRow(of: plain, in: noteEntity, db) == [:], "a row without clocks exists")
            #expect(try PropertyClocks.clockRow(of: orphan, in: noteEntity, db) == nil)
            #expect(try PropertyClocks.clockRow(of: folder, in: noteEntity, db) == nil, "a folder is no note")
        }
        // A save goes on from the moved readings.
        _ = try store.save(author: "t") { try $0.update("Note", id: note, values: ["count": .integer(3)]) }
        let clocks = try store.read { db in
            try PropertyClocks.clocks(of: note, in: store.schema.entity(named: "Note")!, db)
        }
        #expect(clocks["title"] == old && clocks["count"].map { $0 > old } == true)
    }

    /// A process of the build before that still has the store open when a newer one upgrades it
    /// (the app left running): its next save would write its readings into the old table, which
    /// nothing reads any more. The table is gone from under it: the save fails, whole.
    @Test func aProcessOfTheOlderBuildStillRunningCannotSaveReadingsNothingReads() throws {
        let path = directory.file("store.sqlite").path
        let note = GlobalID("01234567-89ab-cdef-0123-456789abcdef")!
        let older = try DatabaseQueue(path: path)
        try TestModel.definition.migrator(upTo: 2).migrate(older, upTo: "ubiquity-v6")
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2, clock: clock)
        // A write of the older build's, then its clock row, in one transaction. (Its object's
        // row needs the engine's SQL function for the index of unique keys, which this bare
        // connection lacks: a metadata row stands for what the save wrote before.)
        #expect(throws: DatabaseError.self) {
            try older.write { db in
                try db.execute(sql: "INSERT INTO ubiquity_metadata (key, value) VALUES ('older', 'saved')")
                try db.execute(
                    sql: "INSERT OR REPLACE INTO ubiquity_object_clock (objectID, clocks) VALUES (?, ?)",
                    arguments: [note, "0001700000000000.000000.peer-old:title"])
            }
        }
        #expect(try store.metadata("older") == nil, "nothing of the save stays")
        try older.close()
    }

    /// A build before `ubiquity-v7` reads clocks from their own table: it would find none and
    /// let every imported value win. It knows every migration but this one, and refuses the store.
    @Test func aBuildWithoutTheMigrationRefusesTheStore() throws {
        let store = try ObjectStore(
            path: directory.file("store.sqlite").path, model: TestModel.definition, version: 2, clock: clock)
        var older = DatabaseMigrator()
        for identifier in ["ubiquity-v1"] + TestModel.definition.versions.map(\.migrationIdentifier)
            + ["ubiquity-v2", "ubiquity-v3", "ubiquity-v4", "ubiquity-v5", "ubiquity-v6"]
        {
            older.registerMigration(identifier) { _ in }
        }
        #expect(try store.read { db in try older.hasBeenSuperseded(db) })
        #expect(try store.read { db in try TestModel.definition.migrator(upTo: 2).hasBeenSuperseded(db) } == false)
    }

    /// A table that a later model version creates gets the column too, whether the store was
    /// made before or after `ubiquity-v7`.
    @Test func aTableOfALaterModelVersionHoldsItsClocks() throws {
        let later = ModelDefinition(
            versions: TestModel.definition.versions + [
                ModelVersion(
                    schema: Schema(
                        version: 3,
                        entities: TestModel.schema(version: 2).entities + [
                            EntityDescription(
                                name: "Tag", table: "tag", attributes: [AttributeDescription("label", .string)])
                        ])
                ) { db in
                    try db.create(table: "tag") { t in
                        t.primaryKey("id", .text)
                        t.column("label", .text)
                    }
                }
            ])
        let path = directory.file("store.sqlite").path
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2, clock: clock)
        let note = try store.save(author: "t") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try store.close()
        let upgraded = try ObjectStore(path: path, model: later, version: 3, clock: clock)
        let tag = try upgraded.save(author: "t") { try $0.insert("Tag", values: ["label": .string("dairy")]) }
        try upgraded.read { (db: Database) throws -> Void in
            #expect(try Self.clocksColumn("tag", tag, db)?.hasSuffix(":label") == true)
            #expect(try Self.clocksColumn("note", note, db)?.isEmpty == false)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ubiquity_unheld_clocks") == 0)
        }
        // A new store of the later version, made in one go.
        let fresh = try ObjectStore(path: directory.file("fresh.sqlite").path, model: later, version: 3, clock: clock)
        let other = try fresh.save(author: "t") { try $0.insert("Tag", values: ["label": .string("fruit")]) }
        #expect(try fresh.read { db in try Self.clocksColumn("tag", other, db) }?.hasSuffix(":label") == true)
    }

    /// Saves and imports write an object's readings into its row, none elsewhere; a delete takes
    /// them with the row; an imported change to a row that has none (a plain store's) applies.
    @Test func savesAndImportsKeepReadingsInTheRow() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let (note, gone) = try a.store.save(author: "t") { context in
            (
                try context.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)]),
                try context.insert("Note", values: ["title": .string("Bread")])
            )
        }
        for _ in 0..<2 { for peer in [a, b] { try peer.sync.sync() } }
        for peer in [a, b] {
            try peer.store.read { (db: Database) throws -> Void in
                #expect(try Self.clocksColumn("note", note, db)?.isEmpty == false, "\(peer.name)")
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ubiquity_unheld_clocks") == 0, "\(peer.name)")
            }
        }
        // b's row loses its readings (as a plain store's has none); a's later edit still lands.
        try b.store.write { db in
            try db.execute(sql: "UPDATE note SET ubiquity_clocks = NULL WHERE id = ?", arguments: [note])
        }
        clock.advance(by: 1)
        try a.store.save(author: "t") { context in
            _ = try context.update("Note", id: note, values: ["count": .integer(5)])
            try context.delete("Note", id: gone)
        }
        for _ in 0..<2 { for peer in [a, b] { try peer.sync.sync() } }
        try b.store.read { (db: Database) throws -> Void in
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM note WHERE id = ?", arguments: [note]) == 5)
            let clocks = try PropertyClocks.clocks(of: note, in: b.store.schema.entity(named: "Note")!, db)
            #expect(Set(clocks.keys) == ["count", "modified"], "the readings of what was imported")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM note WHERE id = ?", arguments: [gone]) == 0)
            #expect(try PropertyClocks.isDeleted(gone, db))
        }
    }
}
