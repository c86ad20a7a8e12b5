import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// An inserted row is written with its readings in the same statement, at the reading its save
/// most likely ends with (``SaveClock``); a save that ends with another reading, or that wrote
/// more of the object after inserting it, stamps the row again. Either way the row ends with
/// the readings of every property the save records, at the save's reading.
@Suite("Readings of the objects a save inserts")
struct InsertReadingsTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    /// Counts the rows SQLite inserted and updated in each table, as they happen.
    final class RowWrites: TransactionObserver {
        var inserts: [String: Int] = [:], updates: [String: Int] = [:]
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            switch event.kind {
            case .insert: inserts[event.tableName, default: 0] += 1
            case .update: updates[event.tableName, default: 0] += 1
            case .delete: break
            }
        }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    static func readings(_ store: ObjectStore, _ entity: String, _ id: GlobalID) throws -> [String: HLC] {
        try store.read { db in try PropertyClocks.clocks(of: id, in: store.schema.entity(named: entity)!, db) }
    }

    /// A save that only inserts writes each row once, with the readings of what it recorded at
    /// the save's reading: no update of the row follows.
    @Test func aSaveThatOnlyInsertsWritesEachRowOnce() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let writes = RowWrites()
        try a.store.write { db in db.add(transactionObserver: writes, extent: .observerLifetime) }
        let (milk, home) = try a.store.save(author: "t") { context in
            (
                try context.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)]),
                try context.insert("Folder", values: ["name": .string("Home")])
            )
        }
        #expect(writes.inserts["note"] == 1 && writes.inserts["folder"] == 1)
        #expect(writes.updates["note"] == nil && writes.updates["folder"] == nil, "\(writes.updates)")
        let record = try #require(try a.store.outbox().last)
        let reading = try #require(record.clock)
        #expect(
            try Self.readings(a.store, "Note", milk)
                == Dictionary(uniqueKeysWithValues: ["title", "count", "modified", "pinned"].map { ($0, reading) }))
        #expect(try Self.readings(a.store, "Folder", home) == ["name": reading])
        // The next save's inserts come after it.
        let bread = try a.store.save(author: "t") { try $0.insert("Note", values: ["title": .string("Bread")]) }
        let next = try #require(try a.store.outbox().last?.clock)
        let breadReadings = try Self.readings(a.store, "Note", bread)
        #expect(next > reading && Set(breadReadings.values) == [next])
    }

    /// A save that updates an object holding a reading ahead of the device's clock (one too far
    /// ahead to move it) ends with a reading after it: the object it inserts takes that reading,
    /// as the update does.
    @Test func anInsertTakesTheReadingOfTheSaveEvenWhenAnUpdateMovesItOn() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let ahead = try a.store.save(author: "t") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        let future = HLC(
            wall: Int64(clock.now().timeIntervalSince1970 * 1000) + 30 * 86_400_000, counter: 7, peer: "peer-b")
        try a.store.write { db in
            try db.execute(
                sql: "UPDATE note SET ubiquity_clocks = ? WHERE id = ?", arguments: ["\(future):count,title", ahead])
        }
        let eggs = try a.store.save(author: "t") { context in
            let eggs = try context.insert("Note", values: ["title": .string("Eggs")])
            try context.update("Note", id: ahead, values: ["count": .integer(4)])
            return eggs
        }
        let reading = try #require(try a.store.outbox().last?.clock)
        #expect(reading > future, "an edit after the value it saw")
        #expect(Set(try Self.readings(a.store, "Note", eggs).values) == [reading])
        #expect(try Self.readings(a.store, "Note", ahead)["count"] == reading)
        #expect(try Self.readings(a.store, "Note", ahead)["title"] == future)
    }

    /// A property the insert left null and a later change of the same save set: the row's
    /// readings name it too.
    @Test func anObjectInsertedAndThenChangedInOneSaveHasTheReadingsOfBoth() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let note = try a.store.save(author: "t") { context in
            let note = try context.insert("Note", values: ["title": .string("Milk")])
            let home = try context.insert("Folder", values: ["name": .string("Home")])
            try context.update("Note", id: note, values: ["folder": .reference(home), "count": .integer(3)])
            return note
        }
        let record = try #require(try a.store.outbox().last)
        let reading = try #require(record.clock)
        #expect(Set(try #require(record.inserted.first { $0.object.id == note }).values.keys).contains("folder"))
        #expect(
            try Self.readings(a.store, "Note", note)
                == Dictionary(
                    uniqueKeysWithValues: ["title", "count", "modified", "pinned", "folder"].map { ($0, reading) }))
    }
}
