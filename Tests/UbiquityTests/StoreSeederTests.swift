import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// The seed ("Merge with Cloud?") on the test model: what a matched object takes from the
/// source, property by property, and what it leaves.
@Suite("Seeding one store into another")
struct StoreSeederTests {
    let directory = TemporaryDirectory("seeder")
    let clock = TestClock()

    func store(_ name: String, peer: String) throws -> ObjectStore {
        try ObjectStore(
            path: directory.file("\(name).sqlite").path, model: TestModel.definition, version: 2, peer: peer,
            clock: clock, ids: SequentialIDs(prefix: peer == "source" ? "11111111" : "22222222"))
    }

    func values(_ title: String, in store: ObjectStore) throws -> Row? {
        try store.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM note WHERE id = ?", arguments: [ShippedDataTests.shippedID(title)])
        }
    }

    func edit(_ store: ObjectStore, _ title: String, _ values: [String: PropertyValue]) throws {
        _ = try store.save(author: "edit") {
            try $0.update("Note", id: ShippedDataTests.shippedID(title), values: values)
        }
    }

    @Test func aMatchTakesTheSourcesLaterValuesPropertyByProperty() throws {
        let source = try store("local", peer: "source")
        let target = try store("cloud", peer: "target")
        for store in [source, target] {
            try ShippedDataTests.ship("Milk", into: store)
            try ShippedDataTests.ship("Eggs", into: store)
            try ShippedDataTests.ship("Flour", into: store)
        }
        try edit(source, "Milk", ["pinned": .bool(true)])
        try edit(source, "Eggs", ["count": .integer(3)])
        clock.advance(by: 60)
        try edit(target, "Milk", ["count": .integer(4)])
        try edit(target, "Eggs", ["count": .integer(9)])

        let counts = try StoreSeeder(source: source, target: target).run()
        #expect(counts.updated == 1 && counts.unchanged == 2 && counts.inserted == 0 && counts.total == 3)
        let milk = try #require(try values("Milk", in: target))
        #expect(milk["pinned"] == true, "the source's edit of a property the target did not change")
        #expect(milk["count"] == 4, "the target's later edit")
        #expect(try values("Eggs", in: target)?["count"] == 9, "the target's edit came after the source's")
        #expect(try values("Flour", in: target)?["count"] == 1)

        // Run again (as after a crash): everything is there.
        let again = try StoreSeeder(source: source, target: target).run()
        #expect(again.unchanged == 3 && again.changed == 0)
    }

    @Test func aSourceWithoutReadingsOnlyFillsWhatTheMatchLacks() throws {
        let original = try store("local", peer: "source")
        let target = try store("cloud", peer: "target")
        try ShippedDataTests.ship("Milk", into: original)
        try ShippedDataTests.ship("Milk", into: target)
        try original.save(author: "edit") { context in
            let folder = try context.insert("Folder", values: ["name": .string("Dairy")])
            try context.update(
                "Note", id: ShippedDataTests.shippedID("Milk"),
                values: ["count": .integer(5), "folder": .reference(folder)])
        }
        // What `cloud disable` leaves: the same objects, no readings.
        let plain = directory.file("plain.sqlite")
        try original.writePlainCopy(to: plain)
        let source = try ObjectStore(
            path: plain.path, model: TestModel.definition, version: 2, peer: "source", clock: clock)

        let counts = try StoreSeeder(source: source, target: target).run()
        #expect(counts.inserted == 1 && counts.updated == 1, "the folder, and Milk")
        let milk = try #require(try values("Milk", in: target))
        #expect(milk["folder"] as String? != nil, "the folder it lacked")
        #expect(milk["count"] == 1, "no reading says the source's count is later")
    }

    @Test func anObjectTheTargetDeletedStaysDeleted() throws {
        let source = try store("local", peer: "source")
        let target = try store("cloud", peer: "target")
        try ShippedDataTests.ship("Milk", into: source)
        try ShippedDataTests.ship("Milk", into: target)
        try ShippedDataTests.ship("Eggs", into: target)
        _ = try target.save(author: "delete") { try $0.delete("Note", id: ShippedDataTests.shippedID("Milk")) }
        clock.advance(by: 60)
        // Even edited on the source later: a delete is final, as in every merge.
        try edit(source, "Milk", ["count": .integer(2)])

        let counts = try StoreSeeder(source: source, target: target).run()
        #expect(counts.deleted == 1 && counts.total == 1)
        #expect(try values("Milk", in: target) == nil)
        #expect(try target.outbox().last?.author == "delete", "the seed saved nothing")
    }

    @Test func aLaterOwnedObjectReplacesTheMatchesWhichGoes() throws {
        let source = try store("local", peer: "source")
        let target = try store("cloud", peer: "target")
        try ShippedDataTests.ship("Milk", into: source)
        try ShippedDataTests.ship("Milk", into: target)
        func attach(_ bytes: [UInt8], to store: ObjectStore) throws -> GlobalID {
            try store.save(author: "attach") { context in
                let attachment = try context.insert("Attachment", values: ["bytes": .data(Data(bytes))])
                try context.update(
                    "Note", id: ShippedDataTests.shippedID("Milk"), values: ["attachment": .reference(attachment)])
                return attachment
            }
        }
        let old = try attach([1], to: target)
        clock.advance(by: 60)
        let new = try attach([2], to: source)

        let counts = try StoreSeeder(source: source, target: target).run()
        #expect(counts.updated == 1)
        #expect(try values("Milk", in: target)?["attachment"] == new.description)
        let attachments = try target.read { db in try String.fetchAll(db, sql: "SELECT id FROM attachment") }
        #expect(attachments == [new.description], "the replaced attachment \(old) belongs to no one and goes")
    }

    /// Two copies in the source (a local store the deduplication has not run on yet): the
    /// second matches the first, which the seed inserted earlier in the same save. That object
    /// has no readings yet as far as the seed can tell (the save stamps it), so the second
    /// copy's values, which have readings, replace the first's where they differ — as when a
    /// save wrote its rows' readings only at its end.
    @Test func aCopyMatchingOneTheSeedInsertedTakesItsValues() throws {
        let source = try store("local", peer: "source")
        let target = try store("cloud", peer: "target")
        let first = try source.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)])
        }
        clock.advance(by: 60)
        let second = try source.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("milk"), "count": .integer(7)])
        }
        #expect(
            first < second, "the seed reads the source in ID order: the first copy is inserted, the second matches it")

        let counts = try StoreSeeder(source: source, target: target).run()
        #expect(counts.inserted == 1 && counts.updated == 1)
        let rows = try target.read { db in try Row.fetchAll(db, sql: "SELECT id, title, count FROM note") }
        #expect(rows.count == 1)
        #expect(rows.first?["id"] == first.description)
        #expect(rows.first?["count"] == 7 && rows.first?["title"] == "milk", "the second copy's values: \(rows)")
        let reading = try #require(try target.outbox().last?.clock)
        let readings = try target.read { db in
            try PropertyClocks.clocks(of: first, in: target.schema.entity(named: "Note")!, db)
        }
        #expect(Set(readings.values) == [reading], "the seed's reading, as every object a save inserts")
    }

    /// Two synced lists made one: the copy keeps the source's readings, in the target and in
    /// the log a peer applies, so an edit of the merged-away list made before the merge, and
    /// carried after it, still wins over the copy by its own time, and loses to a later edit.
    @Test func aCopyKeepingReadingsLetsAnEarlierEditArrivingLaterWin() throws {
        let cloud = directory.file("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud, clock: clock)
        // The merged-away list on two devices: the same note, edited on c while apart.
        let fromA = try store("from-a", peer: "source")
        let fromC = try store("from-c", peer: "source")
        let milk = GlobalID("11111111-0000-0000-0000-0000000000aa")!
        for from in [fromA, fromC] {
            try from.saveShipped(author: "add", reading: HLC(wall: 1_000, counter: 0, peer: "source")) { context in
                _ = try context.insert("Note", id: milk, values: ["title": .string("Milk"), "count": .integer(1)])
            }
        }
        let eggs = try fromA.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("Eggs"), "count": .integer(2)])
        }
        clock.advance(by: 10)
        try fromC.save(author: "edit") { _ = try $0.update("Note", id: milk, values: ["count": .integer(7)]) }
        let edited = try #require(try fromC.outbox().last?.clock)
        clock.advance(by: 10)

        // The merge, on a, later than c's edit.
        let counts = try StoreSeeder(source: fromA, target: a.store, keepsReadings: true).run(author: "lists merge")
        #expect(counts.inserted == 2)
        let note = try #require(a.store.schema.entity(named: "Note"))
        let copied = try a.store.read { db in try PropertyClocks.clocks(of: eggs, in: note, db) }
        let original = try fromA.read { db in try PropertyClocks.clocks(of: eggs, in: note, db) }
        #expect(copied == original, "the copy holds the source's readings, not the merge's")
        let record = try #require(try a.store.outbox().last)
        #expect(record.inserted.allSatisfy { $0.readings != nil }, "the log carries them")
        #expect(try TransactionRecord(jsonData: record.jsonData()) == record, "and reads back with them")
        #expect(try TransactionRecord(parsing: record.jsonData()) == record)
        try a.sync.sync()
        try b.sync.sync()
        let onB = try b.store.read { db in try PropertyClocks.clocks(of: eggs, in: note, db) }
        #expect(onB == original, "a peer applies them with the same readings")

        // c's edit, made before the merge, arrives after it: it wins by its own time.
        let late = try StoreSeeder(source: fromC, target: a.store, keepsReadings: true).run(author: "lists merge")
        #expect(late.updated == 1 && late.unchanged == 0)
        func count(_ peer: TestPeer) throws -> Int? {
            try peer.store.read { db in
                try Int.fetchOne(db, sql: "SELECT count FROM note WHERE id = ?", arguments: [milk.description])
            }
        }
        #expect(try count(a) == 7)
        #expect(try a.store.read { db in try PropertyClocks.clocks(of: milk, in: note, db)["count"] } == edited)
        try a.sync.sync()
        try b.sync.sync()
        #expect(try count(b) == 7)

        // A later edit of the survivor wins over any late copy of an earlier one.
        clock.advance(by: 10)
        try b.store.save(author: "edit") { _ = try $0.update("Note", id: milk, values: ["count": .integer(9)]) }
        try b.sync.sync()
        try a.sync.sync()
        #expect(try StoreSeeder(source: fromC, target: a.store, keepsReadings: true).run().changed == 0)
        #expect(try count(a) == 9)

        // What the source deleted goes from the target too, on every peer.
        try fromA.save(author: "delete") { try $0.delete("Note", id: eggs) }
        #expect(try StoreSeeder(source: fromA, target: a.store, keepsReadings: true).run().deleted == 1)
        try a.sync.sync()
        try b.sync.sync()
        #expect(try b.ids(of: "note") == [milk])
        #expect(try a.contents() == b.contents())
    }
}
