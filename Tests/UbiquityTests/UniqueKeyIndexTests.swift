import Foundation
import GRDB
import Testing
import TestSupport
@testable import Ubiquity

/// Each unique attribute is indexed by its key, and deduplication reads that index alone.
@Suite("The index of unique keys")
struct UniqueKeyIndexTests {
    let directory = TemporaryDirectory("unique-key-index")
    var path: String { directory.file("store.sqlite").path }

    func indexes(_ store: ObjectStore) throws -> Set<String> {
        try store.read { db in try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ubiquity_key_%'") }
    }

    @Test func deduplicationGroupsTheKeysFromTheIndexAlone() throws {
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(try indexes(store) == ["ubiquity_key_nfc_casefold_note", "ubiquity_key_nfc_casefold_folder"])
        let plan = try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Deduplicator.duplicatedKeys(table: "\"note\"", column: "\"title\""))
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INDEX ubiquity_key_nfc_casefold_note") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "the keys come in order from the index, not sorted again: \(plan)")

        // The index follows every write: copies saved after it was made are found and merged.
        for title in ["Café", "CAFE\u{301}", " café "] {
            _ = try store.save(author: "test") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        #expect(try Deduplicator(store: store).run().mergedCount == 2)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 1)
    }

    /// A store made before the index, or with the index of another rule, gets this rule's
    /// index when it opens, and keeps its data.
    @Test func anIndexOfAnotherRuleIsReplacedWhenTheStoreOpens() throws {
        let first = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        _ = try first.save(author: "test") { try $0.insert("Note", values: ["title": .string("Kept")]) }
        try first.write { db in
            try db.execute(sql: "DROP INDEX ubiquity_key_nfc_casefold_note")
            try db.execute(sql: "CREATE INDEX ubiquity_key_oldrule_note ON note(lower(title))")
        }
        let reopened = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(try indexes(reopened) == ["ubiquity_key_nfc_casefold_note", "ubiquity_key_nfc_casefold_folder"])
        #expect(try reopened.read { db in try String.fetchAll(db, sql: "SELECT title FROM note") } == ["Kept"])
    }
}
