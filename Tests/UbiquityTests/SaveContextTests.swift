import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

@Suite("Saves produce transaction records")
struct SaveContextTests {
    let directory = TemporaryDirectory("ubiquity")
    let clock = TestClock()
    let ids = SequentialIDs()

    func openStore(version: Int = 2) throws -> ObjectStore {
        try ObjectStore(
            path: directory.file("store.sqlite").path, model: TestModel.definition,
            version: version, clock: clock, ids: ids)
    }

    @Test func insertRecordsEveryValueWithDefaultsAndModificationDateButNotTheNullsItStartsWith() throws {
        let store = try openStore()
        let id = try store.save(author: "test") { try $0.insert("Note", values: ["title": .string("Milk")]) }

        let records = try store.outbox()
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.author == "test")
        #expect(record.updated.isEmpty && record.deleted.isEmpty)
        // A null it starts with (no folder, no attachment) is nobody's write: it must not win over
        // the value of a copy merged with it later.
        #expect(
            record.inserted == [
                ObjectChange(
                    object: ObjectID(entity: "Note", id: id),
                    values: [
                        "title": .string("Milk"), "count": .integer(0), "modified": .date(clock.now()),
                        "pinned": .bool(false),
                    ])
            ])
        let title = try store.read { db in try String.fetchOne(db, sql: "SELECT title FROM note") }
        #expect(title == "Milk")
    }

    @Test func insertWritesAndRecordsTheValuesGivenOverTheDefaults() throws {
        let store = try openStore()
        let given = Date(timeIntervalSince1970: 1_700_000_000)
        let (folder, id) = try store.save(author: "test") { context in
            let folder = try context.insert("Folder", values: ["name": .string("Home")])
            let id = try context.insert(
                "Note",
                values: [
                    "count": .integer(3), "modified": .date(given), "folder": .reference(folder), "attachment": .null,
                ])
            return (folder, id)
        }
        let record = try #require(try store.outbox().last)
        // A null given where the default is null is no write either; a date given is not replaced by now.
        #expect(
            record.inserted.last
                == ObjectChange(
                    object: ObjectID(entity: "Note", id: id),
                    values: [
                        "title": .string("Untitled"), "count": .integer(3), "modified": .date(given),
                        "pinned": .bool(false), "folder": .reference(folder),
                    ]))
        let row = try #require(
            try store.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT title, count, modified, pinned, folder, attachment FROM note WHERE id = ?",
                    arguments: [id.description])
            })
        #expect(
            row["title"] as String == "Untitled" && row["count"] as Int == 3
                && row["modified"] as Double == 1_700_000_000)
        #expect(row["pinned"] as Bool == false && row["folder"] as String == folder.description)
        #expect((row["attachment"] as DatabaseValue).isNull)
    }

    @Test(arguments: ["", "a", "Äpfel 🍎", String(repeating: "long text, not a small string ", count: 9)])
    func textIsStoredAsGivenWhateverItsLength(_ name: String) throws {
        let store = try openStore()
        let id = try store.save(author: "test") { try $0.insert("Folder", values: ["name": .string(name)]) }
        let stored = try store.read { db in
            try Row.fetchOne(
                db, sql: "SELECT name, typeof(name) AS type FROM folder WHERE id = ?", arguments: [id.description])
        }
        #expect(stored?["type"] as String? == "text")
        #expect(stored?["name"] as String? == name)
    }

    @Test func updateRecordsOnlyChangedPropertiesAndTouchesModified() throws {
        let store = try openStore()
        let id = try store.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("Milk"), "count": .integer(1)])
        }
        clock.advance(by: 60)
        let changed = try store.save(author: "edit") {
            try $0.update("Note", id: id, values: ["title": .string("Milk"), "count": .integer(2)])
        }
        #expect(changed)
        let record = try #require(try store.outbox().last)
        #expect(record.inserted.isEmpty)
        #expect(
            record.updated == [
                ObjectChange(
                    object: ObjectID(entity: "Note", id: id),
                    values: ["count": .integer(2), "modified": .date(clock.now())])
            ])
    }

    @Test func anUpdateThatChangesNothingRecordsNothing() throws {
        let store = try openStore()
        let id = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        let changed = try store.save(author: "edit") {
            try $0.update("Note", id: id, values: ["title": .string("Milk")])
        }
        #expect(!changed)
        #expect(try store.outbox().count == 1)
    }

    @Test func deleteNullifiesReferencesAndCascades() throws {
        let store = try openStore()
        let (note, folder, attachment) = try store.save(author: "add") { context in
            let folder = try context.insert("Folder", values: ["name": .string("Inbox")])
            let attachment = try context.insert("Attachment", values: ["bytes": .data(Data([1, 2, 3]))])
            let note = try context.insert(
                "Note",
                values: [
                    "title": .string("Milk"), "folder": .reference(folder), "attachment": .reference(attachment),
                ])
            return (note, folder, attachment)
        }

        try store.save(author: "rm folder") { try $0.delete("Folder", id: folder) }
        var record = try #require(try store.outbox().last)
        #expect(record.deleted == [ObjectID(entity: "Folder", id: folder)])
        #expect(record.updated.map(\.object) == [ObjectID(entity: "Note", id: note)])
        #expect(record.updated.first?.values["folder"] == .null)

        try store.save(author: "rm note") { try $0.delete("Note", id: note) }
        record = try #require(try store.outbox().last)
        #expect(
            Set(record.deleted) == [ObjectID(entity: "Note", id: note), ObjectID(entity: "Attachment", id: attachment)])
        let remaining = try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment") }
        #expect(remaining == 0)
    }

    @Test func changesToOneObjectInOneSaveAreCoalesced() throws {
        let store = try openStore()
        let kept = try store.save(author: "mixed") { context in
            let kept = try context.insert("Note", values: ["title": .string("A")])
            try context.update("Note", id: kept, values: ["count": .integer(5)])
            let dropped = try context.insert("Note", values: ["title": .string("B")])
            try context.delete("Note", id: dropped)
            return kept
        }
        let record = try #require(try store.outbox().last)
        #expect(record.inserted.count == 1)
        #expect(record.inserted.first?.object.id == kept)
        #expect(record.inserted.first?.values["count"] == .integer(5))
        #expect(record.updated.isEmpty)
        #expect(record.deleted.isEmpty)
    }

    @Test func aFailedSaveWritesNeitherDataNorRecord() throws {
        struct Boom: Error {}
        let store = try openStore()
        #expect(throws: Boom.self) {
            try store.save(author: "fails") { context in
                try context.insert("Note", values: ["title": .string("Lost")])
                throw Boom()
            }
        }
        #expect(try store.outbox().isEmpty)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 0)
    }

    @Test func wrongPropertiesAreRefused() throws {
        let store = try openStore()
        #expect(throws: StoreError.unknownEntity("Nope")) {
            try store.save(author: "x") { try $0.insert("Nope", values: [:]) }
        }
        #expect(throws: StoreError.unknownProperty(entity: "Note", property: "colour")) {
            try store.save(author: "x") { try $0.insert("Note", values: ["colour": .string("red")]) }
        }
        #expect(throws: StoreError.wrongType(entity: "Note", property: "count", expected: .integer)) {
            try store.save(author: "x") { try $0.insert("Note", values: ["count": .string("two")]) }
        }
        #expect(try store.outbox().isEmpty)
    }

    @Test func anIDInUseIsRefusedAndNothingIsWritten() throws {
        let store = try openStore()
        let id = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        #expect(throws: StoreError.duplicateID(ObjectID(entity: "Note", id: id))) {
            try store.save(author: "again") { try $0.insert("Note", id: id, values: ["title": .string("Eggs")]) }
        }
        #expect(try store.outbox().count == 1)
        #expect(try store.read { db in try String.fetchOne(db, sql: "SELECT title FROM note") } == "Milk")
    }

    @Test func theChangeTokenGrowsWithEverySave() throws {
        let store = try openStore()
        let before = try store.changeToken()
        _ = try store.save(author: "add") { try $0.insert("Note", values: ["title": .string("A")]) }
        let other = try openStore()  // another connection, as another process would have
        #expect(try other.changeToken() > before)
    }
}
