import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// The hand-written fast paths give exactly what the plain forms they replace gave.
@Suite("Fast paths")
struct FastPathTests {
    @Test("an ID made from a UUID is its lowercase text")
    func idFromUUID() {
        for _ in 0..<1000 {
            let uuid = UUID()
            #expect(GlobalID(uuid).description == uuid.uuidString.lowercased())
            #expect(GlobalID(uuid.uuidString) == GlobalID(uuid))
        }
    }

    @Test("IDs are checked byte by byte: UUIDs of any case, nothing else")
    func idParsing() {
        #expect(GlobalID("0A1B2C3D-4E5F-6789-ABCD-EF0123456789")?.description == "0a1b2c3d-4e5f-6789-abcd-ef0123456789")
        for text in [
            "", "0a1b2c3d-4e5f-6789-abcd-ef012345678", "0a1b2c3d-4e5f-6789-abcd-ef01234567890",
            "0a1b2c3d_4e5f-6789-abcd-ef0123456789", "0a1b2c3d-4e5f-6789-abcd-ef012345678g",
            "0a1b2c3d-4e5f-6789-abcd-ef012345678é",
        ] {
            #expect(GlobalID(text) == nil, "\(text)")
        }
    }

    @Test("numbered file names are read byte by byte: ten ASCII digits, a dot, the extension")
    func numberedFileNames() {
        #expect(CloudLayout.seq(ofLogNamed: "0000000017.gdlog") == 17)
        #expect(CloudLayout.seq(ofLogNamed: "9999999999.gdlog") == 9_999_999_999)
        #expect(CloudLayout.seq(ofLogNamed: CloudLayout.logName(1234)) == 1234)
        #expect(
            CloudLayout.baselineNumbers(in: ["0000000002.gdbase", "0000000001.gdbase", "0000000003.gdlog"]) == [1, 2])
        for name in [
            "000000017.gdlog", "00000000017.gdlog", "0000000017.gdlo", "0000000017.gdlogx", "0000000017gdlog",
            "0000000017.GDLOG", "000000001x.gdlog", "00000000١٧.gdlog", "0000000017.gdbase", ".0000000017.gdlog",
            "0000000017.sync-conflict-20261121-120000-ABCDEFG.gdlog", "0000000017.gdlog.partial", "", "é",
        ] {
            #expect(CloudLayout.seq(ofLogNamed: name) == nil, "\(name)")
        }
    }

    @Test("a folder's numbered files are read from its entries' bytes as from their names")
    func numberedFolderEntries() throws {
        let folder = TemporaryDirectory("numbered-entries")
        let names = [
            "0000000001.gdlog", "0000000017.gdlog", "0000000003.gdbase", ".0000000004.gdlog.123.tmp",
            "0000000005.sync-conflict-20261121-120000-ABCDEFG.gdlog", "00000000é6.gdlog", "notes.txt",
            String(repeating: "7", count: 240) + ".gdlog", "9999999999.gdlog",
        ]
        for name in names { try Data().write(to: folder.file(name)) }
        try FileManager.default.createDirectory(
            at: folder.file("0000000008.gdlog.d"), withIntermediateDirectories: false)
        let listed = try #require(numberedEntries(folder.path, extension: CloudLayout.logExtension))
        #expect(listed.sorted() == [1, 17, 9_999_999_999])
        #expect(listed.sorted() == (folderEntries(folder.path) ?? []).compactMap(CloudLayout.seq(ofLogNamed:)).sorted())
        #expect(numberedEntries(folder.path, extension: Baseline.fileExtension) == [3])
        #expect(numberedEntries(folder.file("missing").path, extension: CloudLayout.logExtension) == nil)
    }

    @Test("IDs read from a statement's text are the same as through DatabaseValue")
    func idFromStatement() throws {
        let queue = try DatabaseQueue()
        let id = GlobalID(UUID())
        let (fast, slow, missing) = try queue.read { db in
            // A cursor's row reads from the statement itself (the fast path); kept alive meanwhile.
            let cursor = try Row.fetchCursor(db, sql: "SELECT ?, upper(?), NULL", arguments: [id, id])
            let row = try #require(try cursor.next())
            return (row[0] as GlobalID, GlobalID.fromDatabaseValue(row[1] as DatabaseValue), row[2] as GlobalID?)
        }
        #expect(fast == id)
        #expect(slow == id)
        #expect(missing == nil)
    }

    @Test("JSON strings without escapes read in one step, as those with escapes read run by run")
    func jsonStrings() throws {
        let cases: [(json: [UInt8], text: String)] = [
            (Array(#""Milk""#.utf8), "Milk"),
            (Array(#""""#.utf8), ""),
            (Array(#""Crème fraîche 👨‍👩‍👧""#.utf8), "Crème fraîche 👨‍👩‍👧"),
            (Array(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#.utf8), "a\"b\\c/d\né😀"),
            (Array(#""plain then \t escaped""#.utf8), "plain then \t escaped"),
            ([0x22, 0x61, 0xFF, 0x62, 0x22], "a\u{FFFD}b"),  // bad UTF-8 is repaired alike
            ([0x22, 0x61, 0xFF, 0x5C, 0x6E, 0x22], "a\u{FFFD}\n"),  // on either path
        ]
        for (json, text) in cases {
            #expect(try JSONValue.parse(Data(json)) == .string(text), "\(json)")
        }
        for bad in [[0x22, 0x61, 0x0A, 0x22], [0x22, 0x61, 0x62], [0x22, 0x5C, 0x71, 0x22], [0x22, 0x61, 0x5C]]
            as [[UInt8]]
        {
            #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data(bad)) }
        }
    }

    @Test("a checksum of Data read from its buffer, eight bytes a step, is the checksum of its bytes one at a time")
    func crcOfData() {
        var random = SystemRandomNumberGenerator()
        for count in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4099] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(CRC32.checksum(Data(bytes)) == CRC32.checksum(bytes))
            #expect(
                CRC32.update(CRC32.update(CRC32.initial, Data(bytes.prefix(3))), Data(bytes.dropFirst(3)))
                    == CRC32.update(CRC32.initial, bytes))
            // From every alignment: the eight-byte loads are unaligned ones.
            bytes.withUnsafeBytes { buffer in
                for start in 0..<min(8, count) {
                    #expect(
                        CRC32.update(CRC32.initial, UnsafeRawBufferPointer(rebasing: buffer[start...]))
                            == CRC32.update(CRC32.initial, bytes[start...]), "\(count) bytes from \(start)")
                }
            }
        }
        #expect(CRC32.checksum(Data(repeating: 0xFF, count: 32)) == 0xFF6C_AB0B)
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test("which entity the store holds objects as, read at once, is what looking each up answers")
    func storedEntities() throws {
        let folder = TemporaryDirectory("stored-entities")
        let store = try ObjectStore(path: folder.file("store.sqlite").path, model: TestModel.definition, version: 2)
        let (note, folderID, gone) = try store.save(author: "test") { context in
            (
                try context.insert("Note", values: ["title": .string("a note")]),
                try context.insert("Folder", values: ["name": .string("a folder")]),
                try context.insert("Folder", values: ["name": .string("deleted")])
            )
        }
        try store.save(author: "test") { try $0.delete("Folder", id: gone) }
        // A row under two entities (a store edited by hand): the expected one, else the first.
        let both = GlobalID(UUID())
        try store.write { db in
            try db.execute(sql: "INSERT INTO folder (id, name) VALUES (?, 'x')", arguments: [both.description])
            try db.execute(sql: "INSERT INTO attachment (id) VALUES (?)", arguments: [both.description])
        }
        let unknown = GlobalID(UUID())
        let ids = [note, folderID, gone, both, unknown, note]
        try store.read { db in
            let stored = try StoredEntities(of: ids, schema: store.schema, db)
            for id in ids {
                for expected in ["Note", "Folder", "Attachment", "Nothing"] {
                    let oneByOne = try Self.entity(holding: id, expected: expected, store.schema, db)
                    #expect(stored.entity(holding: id, expected: expected) == oneByOne, "\(id) expected as \(expected)")
                }
            }
            #expect(stored.entity(holding: gone, expected: "Note") == "Folder")
            // Without a tombstone an ID stands for itself; one not read is not known to.
            for id in ids {
                let standsForItself =
                    try MergedCopies.survivor(of: id, db) == MergedCopies.Survivor(id: id, deleted: false)
                #expect(stored.hasNoTombstone(id) == standsForItself, "\(id)")
            }
            #expect(!stored.hasNoTombstone(gone))
            #expect(!stored.hasNoTombstone(GlobalID(UUID())))
            #expect(stored.entity(holding: unknown, expected: "Note") == nil)
            let none = try StoredEntities(of: [GlobalID](), schema: store.schema, db)
            #expect(none.entity(holding: note, expected: "Note") == nil)
            // Which had no row of an entity is what looking up its clocks there answers.
            for id in ids {
                for entity in store.schema.entities {
                    let clockRow = try PropertyClocks.clockRow(of: id, in: entity, db)
                    #expect(stored.hadNoRow(id, in: entity) == (clockRow == nil), "\(id) as \(entity.name)")
                }
            }
            let folderEntity = try #require(store.schema.entity(named: "Folder"))
            let noteEntity = try #require(store.schema.entity(named: "Note"))
            #expect(!stored.hadNoRow(both, in: folderEntity) && stored.hadNoRow(both, in: noteEntity))
            #expect(!stored.hadNoRow(note, in: noteEntity) && stored.hadNoRow(unknown, in: noteEntity))
            // Not read: not known to have no row.
            #expect(!stored.hadNoRow(GlobalID(UUID()), in: noteEntity))
        }
    }

    @Test("the IDs the check asks the store about are written as a JSON array of their texts")
    func storedEntitiesListOfIDs() throws {
        #expect(StoredEntities.jsonList(of: []) == "[]")
        let ids = Set((0..<50).map { _ in GlobalID(UUID()) })
        let list = StoredEntities.jsonList(of: ids)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String])
        #expect(parsed.count == ids.count)
        #expect(Set(parsed) == Set(ids.map(\.description)))
    }

    @Test("a schema of more entities than one query may join is read in several, tombstones once")
    func storedEntitiesOfManyTables() throws {
        let folder = TemporaryDirectory("stored-entities-wide")
        let store = try ObjectStore(path: folder.file("store.sqlite").path, model: TestModel.definition, version: 2)
        let (note, gone) = try store.save(author: "test") { context in
            (
                try context.insert("Note", values: ["title": .string("a note")]),
                try context.insert("Folder", values: ["name": .string("deleted")])
            )
        }
        try store.save(author: "test") { try $0.delete("Folder", id: gone) }
        // 120 more entities: three statements' worth of joins.
        let extras = (0..<120).map { EntityDescription(name: "Extra\($0)", table: "extra\($0)", attributes: []) }
        let wide = Schema(version: 2, entities: store.schema.entities + extras)
        let late = GlobalID(UUID())
        let middle = GlobalID(UUID())
        let unknown = GlobalID(UUID())
        try store.write { db in
            for extra in extras { try db.execute(sql: "CREATE TABLE \(extra.table) (id TEXT PRIMARY KEY)") }
            try db.execute(sql: "INSERT INTO extra119 (id) VALUES (?)", arguments: [late.description])
            try db.execute(sql: "INSERT INTO extra50 (id) VALUES (?)", arguments: [middle.description])
            try db.execute(sql: "INSERT INTO extra0 (id) VALUES (?)", arguments: [middle.description])
        }
        try store.read { db in
            let stored = try StoredEntities(of: [note, gone, late, middle, unknown], schema: wide, db)
            #expect(stored.entity(holding: late, expected: "Note") == "Extra119")
            #expect(stored.entity(holding: middle, expected: "Extra50") == "Extra50")
            #expect(stored.entity(holding: middle, expected: "Note") == "Extra0")
            #expect(stored.entity(holding: note, expected: "Note") == "Note")
            #expect(stored.entity(holding: gone, expected: "Note") == "Folder")
            #expect(stored.entity(holding: unknown, expected: "Note") == nil)
            #expect(!stored.hasNoTombstone(gone) && stored.hasNoTombstone(late))
            let noteEntity = try #require(wide.entity(named: "Note"))
            let last = try #require(wide.entity(named: "Extra119"))
            #expect(
                !stored.hadNoRow(note, in: noteEntity) && !stored.hadNoRow(late, in: last)
                    && stored.hadNoRow(unknown, in: last))
        }
    }

    /// The lookup object by object that ``StoredEntities`` replaced: the expected table, the
    /// tombstones, then every other table.
    static func entity(holding id: GlobalID, expected: String, _ schema: Schema, _ db: Database) throws -> String? {
        let key = id.description
        if let table = schema.entity(named: expected)?.table,
            try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE id = ?", arguments: [key])
                == true
        {
            return expected
        }
        if let deleted = try String.fetchOne(
            db, sql: "SELECT entity FROM \(EngineTables.tombstone) WHERE objectID = ?", arguments: [key])
        {
            return deleted
        }
        for entity in schema.entities where entity.name != expected {
            if try Bool.fetchOne(
                db, sql: "SELECT 1 FROM \(entity.table.quotedDatabaseIdentifier) WHERE id = ?", arguments: [key])
                == true
            {
                return entity.name
            }
        }
        return nil
    }

    @Test("changes joined into none are the other's, less what it also inserted or deleted, as joined into some")
    func changesIntoNone() {
        let ids = (0..<6).map { _ in ObjectID(entity: "Note", id: GlobalID(UUID())) }
        var other = ImportedChanges()
        other.inserted = [ids[0], ids[1], ids[2]]
        other.updated = [ids[1], ids[3], ids[4]]
        other.deleted = [ids[2], ids[4], ids[5]]
        var none = ImportedChanges()
        none.formUnion(other)
        #expect(none.inserted == [ids[0], ids[1]])
        #expect(none.updated == [ids[3]])
        #expect(none.deleted == [ids[2], ids[4], ids[5]])
        // The general rule, from a set that holds something unrelated, gives the same plus it.
        let unrelated = ObjectID(entity: "Folder", id: GlobalID(UUID()))
        var some = ImportedChanges()
        some.updated = [unrelated]
        some.formUnion(other)
        #expect(some.inserted == none.inserted)
        #expect(some.updated == none.updated.union([unrelated]))
        #expect(some.deleted == none.deleted)
        // Into none with room made for a batch: the same, and the room kept for the logs after.
        var roomy = ImportedChanges()
        roomy.reserveCapacity(inserted: 1000, updated: 10)
        roomy.formUnion(other)
        #expect(roomy == none)
        #expect(roomy.inserted.capacity >= 1000 && roomy.updated.capacity >= 10)
    }

    @Test("the writer's page cache holds an import's pages; readers keep SQLite's default")
    func writerCache() throws {
        let folder = TemporaryDirectory("writer-cache")
        let store = try ObjectStore(path: folder.file("store.sqlite").path, model: TestModel.definition, version: 2)
        #expect(try store.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -ObjectStore.writerCacheKiB)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } != -ObjectStore.writerCacheKiB)
    }
}
