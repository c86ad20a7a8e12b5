import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Each unique attribute is indexed by its key, and deduplication reads that index alone.
@Suite("The index of unique keys")
struct UniqueKeyIndexTests {
    let directory = TemporaryDirectory("unique-key-index")
    var path: String { directory.file("store.sqlite").path }

    func indexes(_ store: ObjectStore) throws -> Set<String> {
        try store.read { db in
            try String.fetchSet(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ubiquity_key_%'")
        }
    }

    @Test func deduplicationGroupsTheKeysFromTheIndexAlone() throws {
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(
            try indexes(store) == [
                "ubiquity_key_nfc_casefold_covering_note", "ubiquity_key_nfc_casefold_covering_folder",
            ])
        let plan = try store.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + Deduplicator.duplicatedKeys(table: "\"note\"", column: "\"title\"")
            )
            .map { $0["detail"] as String }
        }
        #expect(
            plan.contains { $0.contains("USING COVERING INDEX ubiquity_key_nfc_casefold_covering_note") },
            "the keys are computed from the index's own copy of the attribute, no row read: \(plan)")
        #expect(
            !plan.contains { $0.contains("TEMP B-TREE") },
            "the keys come in order from the index, not sorted again: \(plan)")

        // The index follows every write: copies saved after it was made are found and merged.
        for title in ["Café", "CAFE\u{301}", " café "] {
            _ = try store.save(author: "test") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        #expect(try Deduplicator(store: store).run().mergedCount == 2)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 1)
    }

    /// A tool without the engine's function reads the store but cannot change a name (nothing
    /// changes); a plain copy, meant for any tool, has no index of keys.
    @Test func anotherToolCannotChangeANameButCanInAPlainCopy() throws {
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        _ = try store.save(author: "test") { try $0.insert("Note", values: ["title": .string("Kept")]) }
        let tool = try DatabaseQueue(path: path)
        #expect(throws: DatabaseError.self) {
            try tool.write { db in try db.execute(sql: "UPDATE note SET title = 'Changed'") }
        }
        #expect(try tool.read { db in try String.fetchAll(db, sql: "SELECT title FROM note") } == ["Kept"])
        try tool.close()

        let copy = directory.file("plain.sqlite")
        try store.writePlainCopy(to: copy)
        let plain = try DatabaseQueue(path: copy.path)
        try plain.write { db in try db.execute(sql: "UPDATE note SET title = 'Changed'") }
        #expect(
            try plain.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'ubiquity_key_%'")
            } == [])
        try plain.close()
        let reopened = try ObjectStore(path: copy.path, model: TestModel.definition, version: 2)
        #expect(
            try indexes(reopened) == [
                "ubiquity_key_nfc_casefold_covering_note", "ubiquity_key_nfc_casefold_covering_folder",
            ])
    }

    /// A store made before the index, or with the index of another rule or shape, gets this
    /// rule's index when it opens, and keeps its data.
    @Test func anIndexOfAnotherRuleIsReplacedWhenTheStoreOpens() throws {
        let first = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        _ = try first.save(author: "test") { try $0.insert("Note", values: ["title": .string("Kept")]) }
        try first.write { db in
            try db.execute(sql: "DROP INDEX ubiquity_key_nfc_casefold_covering_note")
            try db.execute(sql: "DROP INDEX ubiquity_key_nfc_casefold_covering_folder")
            try db.execute(sql: "CREATE INDEX ubiquity_key_oldrule_note ON note(lower(title))")
            // The shape of the builds before: the key alone.
            try db.execute(sql: "CREATE INDEX ubiquity_key_nfc_casefold_folder ON folder(ubiquity_unique_key(name))")
        }
        let reopened = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(
            try indexes(reopened) == [
                "ubiquity_key_nfc_casefold_covering_note", "ubiquity_key_nfc_casefold_covering_folder",
            ])
        #expect(try reopened.read { db in try String.fetchAll(db, sql: "SELECT title FROM note") } == ["Kept"])
    }
}

/// The SQL function, registered through SQLite's C API, gives the keys Swift gives: an index
/// built by an older build (GRDB's wrapper around the same rules) holds the keys this one looks for.
@Suite("The unique key in SQL")
struct UniqueKeySQLTests {
    let directory = TemporaryDirectory("unique-key-sql")

    @Test func textAndUTF8BlobsHaveSwiftsKeysOtherValuesNone() throws {
        let store = try ObjectStore(path: directory.file("store.sqlite").path, model: TestModel.definition, version: 2)
        let samples = [
            "Milk", "  milk  ", "MILK\tfresh\n", "a  b   c", "Café", "CAFE\u{301}", "Straße", " ", "", "ＡＢＣ",
            "Kelvin \u{212A}", String(repeating: "Long Name ", count: 500),
        ]
        try store.read { db in
            for text in samples {
                let key = try String.fetchOne(db, sql: "SELECT ubiquity_unique_key(?)", arguments: [text])
                #expect(key == UniqueKey.normalize(text), "\(text.debugDescription)")
                let fromBlob = try String.fetchOne(
                    db, sql: "SELECT ubiquity_unique_key(?)", arguments: [Data(text.utf8)])
                #expect(fromBlob == UniqueKey.normalize(text), "a blob of \(text.debugDescription)")
            }
            // Text up to its first NUL, as GRDB's wrapper read it; a blob whole.
            #expect(try String.fetchOne(db, sql: "SELECT ubiquity_unique_key('A' || char(0) || 'B') = 'a'") == "1")
            #expect(
                try Data.fetchOne(
                    db, sql: "SELECT CAST(ubiquity_unique_key(?) AS BLOB)", arguments: [Data("A\u{0}B".utf8)])
                    == Data("a\u{0}b".utf8))
            // Ill-formed UTF-8: repaired in text, no key for a blob.
            #expect(
                try String.fetchOne(db, sql: "SELECT ubiquity_unique_key(CAST(X'C3FF41' AS TEXT))")
                    == UniqueKey.normalize(String(decoding: [0xC3, 0xFF, 0x41], as: UTF8.self)))
            #expect(
                try String.fetchOne(db, sql: "SELECT ubiquity_unique_key(?)", arguments: [Data([0xFF, 0xFE])]) == nil)
            #expect(try String.fetchOne(db, sql: "SELECT ubiquity_unique_key(42)") == nil)
            #expect(try String.fetchOne(db, sql: "SELECT ubiquity_unique_key(NULL)") == nil)
        }
        #expect(UniqueKey.normalize(" Tin  CAN ") == "tin can")
        #expect(UniqueKey.normalize("STRASSE") == UniqueKey.normalize("Straße"))
    }
}
