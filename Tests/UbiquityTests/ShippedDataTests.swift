import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Data shipped with an app: IDs derived from what an object is, and saves stamped with a fixed,
/// old reading, so that every device's copy is one object that any edit wins over.
@Suite("Shipped data")
struct ShippedDataTests {
    let cloud = TemporaryDirectory("shipped-cloud")
    let clock = TestClock()
    static let namespace = GlobalID("ee2f417f-1602-4f40-9a94-5c348b727314")!
    /// Older than the test clock's readings, as the app's release is older than its users' edits.
    static let shipped = HLC(wall: 1_000_000_000_000, counter: 0, peer: "0-shipped")

    static func shippedID(_ title: String) -> GlobalID { GlobalID.derived(from: ["Note", title], in: namespace) }

    /// Inserts the shipped note `title` unless the store has it or deleted it.
    static func ship(_ title: String, count: Int64 = 1, into store: ObjectStore) throws {
        try store.saveShipped(author: "shipped", reading: shipped) { context in
            let id = shippedID(title)
            guard try context.values(of: "Note", id: id) == nil, try !context.isDeleted(id) else { return }
            try context.insert("Note", id: id, values: ["title": .string(title), "count": .integer(count)])
        }
    }

    func note(_ title: String, in peer: TestPeer) throws -> Row? {
        try peer.store.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM note WHERE id = ?", arguments: [Self.shippedID(title)])
        }
    }

    // MARK: - Derived IDs

    @Test func aDerivedIDIsTheSameEverywhereAndANameBasedUUID() {
        let kg = GlobalID.derived(from: ["Unit", "kg"], in: Self.namespace)
        // Computed apart from the engine (Python's hashlib and uuid), so the algorithm is pinned:
        // the first 16 bytes of SHA-256(namespace bytes, "Unit", 0, "kg", 0), version 8, variant 10.
        #expect(kg.description == "f21ef44b-5bbe-8ea7-8426-df9ae246a7d4")
        #expect(
            GlobalID.derived(from: ["Item", "Aluminium Foil"], in: Self.namespace).description
                == "7899a5d7-6d44-8105-b2a6-25ba53e483d5")
        #expect(GlobalID.derived(from: ["Unit", "kg"], in: Self.namespace) == kg)
        #expect(GlobalID.derived(from: ["Item", "kg"], in: Self.namespace) != kg, "the entity is part of the name")
        #expect(
            GlobalID.derived(from: ["ab", "c"], in: Self.namespace)
                != GlobalID.derived(from: ["a", "bc"], in: Self.namespace))
        #expect(GlobalID.derived(from: ["Unit", "kg"], in: GlobalID(UUID())) != kg, "another namespace, another ID")
    }

    // MARK: - Shipped saves

    @Test func aShippedSaveStampsItsReadingAndLeavesTheDeviceClockAlone() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try Self.ship("Milk", into: a.store)
        let record = try #require(try a.store.outbox().first)
        #expect(record.clock == Self.shipped)
        #expect(record.inserted.map(\.object.id) == [Self.shippedID("Milk")])
        let clocks = try a.store.read { db in
            try PropertyClocks.clocks(of: Self.shippedID("Milk"), in: a.store.schema.entity(named: "Note")!, db)
        }
        #expect(!clocks.isEmpty && clocks.values.allSatisfy { $0 == Self.shipped })
        #expect(
            try a.store.read { db in try PropertyClocks.current(db) } == nil, "the device's clock did not follow it")

        // An edit comes after it, whatever the device's clock says.
        let edited = try a.store.save(author: "edit") {
            try $0.update("Note", id: Self.shippedID("Milk"), values: ["count": .integer(2)])
        }
        #expect(edited)
        #expect(try a.store.outbox().last?.clock.map { $0 > Self.shipped } == true)
    }

    @Test func aShippedSaveMayOnlyInsert() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try Self.ship("Milk", into: a.store)
        #expect(throws: StoreError.shippedSaveChanges(ObjectID(entity: "Note", id: Self.shippedID("Milk")))) {
            try a.store.saveShipped(author: "shipped", reading: Self.shipped) { context in
                try context.update("Note", id: Self.shippedID("Milk"), values: ["count": .integer(5)])
            }
        }
        #expect(try a.store.outbox().count == 1, "nothing written")
        #expect(try note("Milk", in: a)?["count"] == 1)
    }

    /// Two devices ship the same object; one edits it, the other deletes another: in any order of
    /// arrival, both hold one object with the edit, and the deleted one stays deleted.
    @Test(arguments: [false, true])
    func twoDevicesShippedCopiesAreOneObjectThatEditsAndDeletesWinOver(_ editorExportsFirst: Bool) throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        try Self.ship("Milk", into: a.store)
        try Self.ship("Eggs", into: a.store)
        _ = try a.store.save(author: "edit") {
            try $0.update("Note", id: Self.shippedID("Milk"), values: ["count": .integer(7)])
        }
        try a.store.save(author: "delete") { try $0.delete("Note", id: Self.shippedID("Eggs")) }
        clock.advance(by: 3600)
        // b ships later, without having seen a's changes.
        try Self.ship("Milk", into: b.store)
        try Self.ship("Eggs", into: b.store)

        let order = editorExportsFirst ? [a, b] : [b, a]
        for peer in order { _ = try peer.sync.exportPending() }
        for peer in order.reversed() { _ = try peer.sync.importPending() }

        for peer in [a, b] {
            #expect(try peer.ids(of: "note") == [Self.shippedID("Milk")], "\(peer.name): one Milk, no Eggs")
            #expect(try note("Milk", in: peer)?["count"] == 7, "\(peer.name): the edit won over the later shipped copy")
        }
        #expect(try a.contents() == b.contents())
    }
}
