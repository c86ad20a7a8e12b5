import Foundation
import GRDB
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

/// The deduplicator on Grocery Dude's model: which copy survives, how it is spelled, what it
/// keeps, and that two peers deduplicating at once agree.
@Suite("Deduplication")
struct DeduplicationTests {
    let directory = TemporaryDirectory("dedupe")

    func id(_ n: Int) -> GlobalID {
        GlobalID("00000000-0000-0000-0000-\(String(repeating: "0", count: 12 - String(n).count))\(n)")!
    }

    func insert(_ store: GroceryStore, _ entity: String, id: GlobalID, _ values: [String: PropertyValue]) throws {
        _ = try store.objects.save(author: "test") { try $0.insert(entity, id: id, values: values) }
    }

    func survivors(_ store: GroceryStore, _ table: String) throws -> [String] {
        try store.objects.read { db in try String.fetchAll(db, sql: "SELECT id FROM \(table) ORDER BY id") }
    }

    func update(_ store: GroceryStore, _ entity: String, id: GlobalID, _ values: [String: PropertyValue]) throws {
        _ = try store.objects.save(author: "test") { try $0.update(entity, id: id, values: values) }
    }

    @Test func theSmallestIDHoldsTheObjectAndEachPropertyKeepsItsNewestValue() throws {
        let store = try GroceryStore.temporary(in: directory)
        try insert(store, "Item", id: id(8), ["name": .string("Milk"), "quantity": .double(2)])
        try insert(store, "Item", id: id(2), ["name": .string("milk "), "quantity": .double(1)])
        // Edits after both were made: the quantity on the greater ID, the note on the smaller.
        try update(store, "Item", id: id(8), ["quantity": .double(6)])
        try update(store, "Item", id: id(2), ["note": .string("skimmed")])
        try insert(store, "LocationAtHome", id: id(7), ["storedIn": .string("Fridge")])
        try insert(store, "LocationAtHome", id: id(3), ["storedIn": .string("  fridge")])
        let report = try Deduplicator(store: store.objects).run()
        #expect(report.mergedCount == 2)
        #expect(try survivors(store, "item") == [id(2).description])
        #expect(try survivors(store, "locationAtHome") == [id(3).description])
        let milk = try #require(try store.item(id: ItemID(id(2))))
        #expect(milk.item.quantity == 6, "the newest quantity, edited on the copy merged away")
        #expect(milk.item.note == "skimmed")
        #expect(milk.name == "milk ", "the newest spelling")
        let merge = try #require(report.merges.first { $0.entity == "Item" })
        #expect(merge.winner == id(2) && merge.losers == [id(8)] && merge.carried == ["quantity"])
    }

    @Test func aUnitIsSpelledAsTheCopiesMostItemsUseThenTheNewest() throws {
        let store = try GroceryStore.temporary(in: directory)
        try insert(store, "Unit", id: id(1), ["name": .string("kg")])
        try insert(store, "Unit", id: id(2), ["name": .string("KG")])
        for n in 10..<13 {
            try insert(store, "Item", id: id(n), ["name": .string("Item \(n)"), "unit": .reference(id(1))])
        }
        try insert(store, "Item", id: id(13), ["name": .string("Item 13"), "unit": .reference(id(2))])
        // Used by no item: the newest spelling.
        try insert(store, "LocationAtShop", id: id(20), ["aisle": .string("dairy")])
        try insert(store, "LocationAtShop", id: id(21), ["aisle": .string("Dairy")])
        // A second copy spelled "KG" counts with the first: 2 + 2 items against 3.
        try insert(store, "Unit", id: id(3), ["name": .string("tin")])
        try insert(store, "Unit", id: id(4), ["name": .string("TIN")])
        try insert(store, "Unit", id: id(5), ["name": .string("TIN")])
        for (n, unit) in [(30, 3), (31, 3), (32, 3), (33, 4), (34, 4), (35, 5), (36, 5)] {
            try insert(store, "Item", id: id(n), ["name": .string("Item \(n)"), "unit": .reference(id(unit))])
        }
        _ = try Deduplicator(store: store.objects).run()
        #expect(try store.entries(.unit).map(\.name) == ["kg", "TIN"])
        #expect(try survivors(store, "unit") == [id(1).description, id(3).description])
        #expect(try store.entries(.shop).map(\.name) == ["Dairy"])
        for n in [10, 11, 12, 13] { #expect(try store.item(id: ItemID(id(n)))?.unitName == "kg") }
        for n in 30...36 { #expect(try store.item(id: ItemID(id(n)))?.unitName == "TIN") }
        let units = try store.objects.read { db in
            try GlobalID.fetchAll(db, sql: "SELECT DISTINCT unit FROM item ORDER BY unit")
        }
        #expect(units == [id(1), id(3)], "every item points at a survivor")
    }

    @Test func theSurvivorKeepsWhatOnlyACopyHadAndEverythingPointingAtACopyPointsAtIt() throws {
        let store = try GroceryStore.temporary(in: directory)
        try insert(store, "Unit", id: id(1), ["name": .string("kg")])
        try insert(store, "Unit", id: id(2), ["name": .string("Kg")])
        try insert(store, "ItemPhoto", id: id(3), ["data": .data(Data([1, 2, 3]))])
        // The copy merged away has the photo, the note and the unit; the survivor, made later,
        // has none: nulls an object was made with are nobody's edit.
        try insert(
            store, "Item", id: id(5),
            [
                "name": .string("flour"), "note": .string("plain"),
                "photo": .reference(id(3)), "unit": .reference(id(1)),
            ])
        try insert(store, "Item", id: id(4), ["name": .string("Flour")])
        try insert(store, "Item", id: id(6), ["name": .string("Sugar"), "unit": .reference(id(2))])
        try insert(store, "Item", id: id(7), ["name": .string("Salt"), "unit": .reference(id(1))])
        let report = try Deduplicator(store: store.objects).run()
        #expect(report.mergedCount == 2)
        let flour = try #require(try store.item(id: ItemID(id(4))))
        #expect(flour.item.note == "plain")
        #expect(flour.unitName == "kg", "its unit, via the surviving unit")
        let photo = try store.objects.read { db in
            try Data.fetchOne(db, sql: "SELECT data FROM itemPhoto WHERE id = ?", arguments: [id(3).description])
        }
        #expect(photo == Data([1, 2, 3]), "the photo went to the survivor, not with the duplicate")
        #expect(flour.item.photo == PhotoID(id(3)))
        #expect(try store.item(id: ItemID(id(6)))?.unitName == "kg", "Sugar used Kg and now uses kg")
        #expect(try Deduplicator(store: store.objects).run().unchangedSinceLastRun)
    }

    @Test func namesInAnotherUnicodeFormOrCaseFoldingAreDuplicates() throws {
        let store = try GroceryStore.temporary(in: directory)
        // As two peers (or an older build) stored them: "Café" composed and decomposed.
        try insert(store, "Item", id: id(1), ["name": .string("Caf\u{E9}"), "note": .string("decaf")])
        try insert(store, "Item", id: id(2), ["name": .string("CAFE\u{301} ")])
        try insert(store, "Unit", id: id(3), ["name": .string("Stra\u{DF}e")])
        try insert(store, "Unit", id: id(4), ["name": .string("STRASSE")])
        // A run under the old rule found nothing to merge: its record does not stop this one.
        try store.objects.setMetadata("dedupeToken", String(try store.objects.changeToken()))
        let report = try Deduplicator(store: store.objects).run()
        #expect(report.mergedCount == 2)
        #expect(try survivors(store, "item") == [id(1).description])
        #expect(try survivors(store, "unit") == [id(3).description])
        let survivor = try #require(try store.item(id: ItemID(id(1))))
        #expect(
            survivor.name.unicodeScalars.map(\.value) == "CAFE\u{301} ".unicodeScalars.map(\.value),
            "the newest spelling, as it was stored: every peer merges to the same value")
        #expect(survivor.item.note == "decaf")
    }

    /// A store that sync no longer manages (`cloud disable` writes it without readings) is
    /// deduplicated too: the survivor takes what it lacks.
    @Test func aPlainStoreWithoutReadingsIsDeduplicatedToo() throws {
        let synced = try GroceryStore.temporary(in: directory)
        try insert(synced, "Item", id: id(1), ["name": .string("Milk")])
        try insert(
            synced, "Item", id: id(2), ["name": .string("MILK"), "note": .string("oat"), "quantity": .double(2)])
        let copy = directory.file("plain.sqlite")
        try synced.writePlainCopy(to: copy)
        let plain = try GroceryStore(path: copy.path, defaultData: false)
        #expect(try Deduplicator(store: plain.objects).run().mergedCount == 1)
        let milk = try #require(try plain.item(id: ItemID(id(1))))
        #expect(
            milk.item.note == "oat" && milk.name == "Milk" && milk.item.quantity == 1,
            "what it lacked, and nothing else")
    }

    @Test func twoPeersDeduplicatingAtOnceConvergeWithNothingLost() throws {
        let cloud = TemporaryDirectory("dedupe-cloud")
        func peer(_ name: String) throws -> (GroceryStore, CloudSync) {
            let store = try GroceryStore(
                path: directory.file("\(name).sqlite").path, defaultData: false, peer: "peer-\(name)")
            let layout = try CloudLayout(
                cloud: cloud.url, account: "default", storeName: "GroceryDude", modelVersion: store.modelVersion)
            return (store, CloudSync(store: store.objects, layout: layout, device: name))
        }
        let (a, syncA) = try peer("a")
        let (b, syncB) = try peer("b")
        for (store, unit) in [(a, "kg"), (b, "Kg")] {
            for name in ["Milk", "Eggs", "Flour"] {
                var draft = ItemDraft(name: name)
                draft.unit = unit
                draft.homeLocation = "Pantry"
                try store.addItem(draft)
            }
        }
        try b.addItem(ItemDraft(name: "Only On B"))
        for sync in [syncA, syncB, syncA] { try sync.sync() }
        #expect(try a.items().count == 7 && b.items().count == 7)
        // At the same time: neither has seen the other's merges.
        let reportA = try Deduplicator(store: a.objects).run()
        let reportB = try Deduplicator(store: b.objects).run()
        #expect(Set(reportA.merges.map(\.winner)) == Set(reportB.merges.map(\.winner)))
        for sync in [syncA, syncB, syncA] { try sync.sync() }
        #expect(try Deduplicator(store: a.objects).run().merges.isEmpty)
        let names = try a.items().map(\.name)
        #expect(names == ["Eggs", "Flour", "Milk", "Only On B"])
        #expect(
            try a.items().filter { $0.name != "Only On B" }.allSatisfy {
                $0.unitName != nil && $0.homeLocationName == "Pantry"
            })
        #expect(try a.exportArchive() == b.exportArchive())
    }

    @Test func theDefaultDataGoesToAnAccountOnce() throws {
        let first = try StoreConfiguration.temporary(in: directory, device: "first", defaultData: true)
        let second = try StoreConfiguration.temporary(in: directory, device: "second", defaultData: true)
        let cloud = first.cloud
        #expect(try CloudSetup.run(first, account: "default"))
        let firstStore = try GroceryStore(path: first.cloudStoreURL(account: "default").path, defaultData: false)
        let shipped = try firstStore.items().count
        #expect(shipped == 138)
        _ = try CloudSync(store: firstStore.objects, layout: first.layout(account: "default"), device: "first")
            .exportPending()
        let flag = KeyValueStore(
            cloud: cloud, account: "default", peer: "anyone", format: StoreCoordinator.keyValueFormat
        ).value(forKey: StoreCoordinator.seededDataKey)
        #expect(flag?.hasPrefix("first ") == true)

        #expect(try CloudSetup.run(second, account: "default"))
        let secondStore = try GroceryStore(path: second.cloudStoreURL(account: "default").path, defaultData: false)
        #expect(try secondStore.items().count == shipped, "imported from the first device, not added again")
        #expect(try secondStore.objects.outbox().isEmpty, "the second device saved nothing of its own")
    }

    /// Default data an earlier build loaded under random IDs, dated when it was loaded, meets
    /// the shipped IDs by name: a seed matches it, and when both sets end up in one store,
    /// deduplication makes one of each, as before.
    @Test func defaultDataOfAnEarlierBuildMeetsTheShippedIDsByName() throws {
        let earlier = try GroceryStore.temporary(in: directory, name: "earlier")
        try earlier.importArchive(try DefaultData.archive(), source: "default data")
        // Listed on another device, after the earlier build loaded its copy.
        let local = try GroceryStore.temporary(
            in: directory, name: "local", defaultData: true,
            clock: TestClock(Date(timeIntervalSince1970: 1_800_000_060)))
        _ = try local.setListed("Aluminium Foil", true)

        let counts = try StoreSeeder(source: local.objects, target: earlier.objects).run()
        // 179 shipped objects and the default shop, which every store of model 3 has alike.
        #expect(counts.unchanged == 180 && counts.updated == 1 && counts.inserted == 0, "\(counts)")
        #expect(try earlier.items().count == 138)
        #expect(try Deduplicator(store: earlier.objects).run().merges.isEmpty)
        #expect(try earlier.items(listedOnly: true).map(\.name) == ["Aluminium Foil"], "the later listing won")

        // Both sets in one store (two devices of two builds set up at once): one of each.
        let both = try GroceryStore.temporary(in: directory, name: "both", defaultData: true)
        try both.objects.copyObjects(from: earlier.objects, author: "the other build's copy")
        #expect(try both.items().count == 2 * 138)
        let report = try Deduplicator(store: both.objects).run()
        #expect(report.mergedCount == 180)
        #expect(try both.counts() == [138, 17, 10, 15])
    }
}
