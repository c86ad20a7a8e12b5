import Foundation
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

@Suite("Default data on first launch")
struct DefaultDataTests {
    let directory = TemporaryDirectory("defaults")

    @Test func theShippedDataIsValidAndLargeEnough() throws {
        let archive = try DefaultData.archive()
        #expect(archive.items.count >= 100)
        #expect(archive.items.allSatisfy { $0.homeLocation != nil && $0.shopLocation != nil })
        #expect(archive.items.filter { $0.unit != nil }.count >= 50)
        let names = archive.items.map { Validation.normalized($0.name) }
        #expect(Set(names).count == names.count, "no duplicate names")
        for item in archive.items {
            _ = try Validation.name(item.name, field: "item")
            _ = try Validation.quantity(item.quantity ?? 1)
        }
    }

    @Test func aNewStoreGetsTheDefaultsOnceAndOnlyOnce() throws {
        let expected = try DefaultData.archive()
        let store = try GroceryStore.temporary(in: directory, defaultData: true)
        #expect(try store.items().count == expected.items.count)
        #expect(try store.items(listedOnly: true).isEmpty, "the shopping list starts empty")
        #expect(try store.transactionCount() == 1)

        try store.removeItem("Milk")
        let reopened = try GroceryStore.temporary(in: directory, defaultData: true)
        #expect(try reopened.items().count == expected.items.count - 1, "a deleted default stays deleted")
        #expect(try reopened.transactionCount() == 2)
    }

    @Test func aStoreOpenedWithoutDefaultsNeverGetsThemLater() throws {
        _ = try GroceryStore.temporary(in: directory, defaultData: false)
        let reopened = try GroceryStore.temporary(in: directory, defaultData: true)
        #expect(try reopened.items().isEmpty)
    }

    // MARK: - The shipped identity

    @Test func everyShippedObjectHasItsShippedIDDateAndReadingInEveryModelVersion() throws {
        let archive = try DefaultData.archive()
        #expect(archive.items.allSatisfy { $0.photo == nil && $0.note == nil })
        var stores: [GroceryStore] = []
        for version in [1, 2] {
            let folder = TemporaryDirectory("defaults-v\(version)")
            stores.append(try GroceryStore.temporary(in: folder, modelVersion: version, defaultData: true))
        }
        for store in stores {
            for row in try store.items() {
                #expect(row.item.id.globalID == DefaultData.id(GrocerySchema.Entity.item, named: row.name))
                #expect(row.item.modified == DefaultData.shippedDate)
                #expect(
                    row.item.unit?.globalID == row.unitName.map { DefaultData.id(GrocerySchema.Entity.unit, named: $0) }
                )
            }
            for kind in CatalogKind.allCases {
                #expect(
                    try store.entries(kind).allSatisfy {
                        $0.id.globalID == DefaultData.id(kind.entity, named: $0.name)
                            && $0.modified == DefaultData.shippedDate
                    })
            }
            #expect(try store.objects.outbox().map(\.clock) == [DefaultData.reading])
        }
        #expect(
            try stores[0].items().map(\.item.id) == stores[1].items().map(\.item.id),
            "the same objects at model versions 1 and 2")
    }

    @Test func theShippedReadingIsOnePeersAcceptAndLosesToAnyDeviceAtTheSameMoment() {
        let reading = DefaultData.reading
        #expect(HLC.isPeerName(reading.peer) && reading.wall >= 0 && reading.counter == 0)
        #expect(reading.wall == Int64(DefaultData.shippedDate.timeIntervalSince1970 * 1000))
        for peer in [
            "00000000-0000-4000-8000-000000000000", "0a1b2c3d-0000-4000-8000-000000000000",
            "ffffffff-ffff-4fff-bfff-ffffffffffff", "local",
        ] {
            #expect(reading < HLC(wall: reading.wall, counter: 0, peer: peer), "\(peer)")
        }
    }

    @Test func addingTheDefaultDataAgainKeepsWhatTheUserDid() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: true)
        _ = try store.renameEntry(.unit, "kg", to: "kilogram")
        _ = try store.removeItem("Milk")
        _ = try store.removeEntry(.unit, "L")
        _ = try store.setListed("Aluminium Foil", true)

        let summary = try store.addDefaultData()
        #expect(summary.items.inserted == 0 && summary.units.inserted == 0, "\(summary)")
        #expect(try store.items().count == 137, "Milk stays deleted")
        #expect(try store.entries(.unit).map(\.name).contains("kilogram"))
        #expect(!(try store.entries(.unit).map(\.name).contains("kg")), "the renamed unit is not shipped again")
        #expect(!(try store.entries(.unit).map(\.name).contains("L")), "the deleted unit stays deleted")
        #expect(try store.items(listedOnly: true).map(\.name) == ["Aluminium Foil"])
    }

    /// A store that holds the tombstone of a shipped unit (a peer deleted it) and gets the
    /// default data: the unit stays deleted, and its items come without it, as every peer reads
    /// a link to a deleted object.
    @Test func aShippedItemLinksToADeletedUnitAsNothing() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: false)
        let litre = DefaultData.id(GrocerySchema.Entity.unit, named: "L")
        _ = try store.objects.save(author: "a peer's unit") { context in
            try context.insert(GrocerySchema.Entity.unit, id: litre, values: ["name": .string("L")])
        }
        _ = try store.objects.save(author: "deleted") { context in
            try context.delete(GrocerySchema.Entity.unit, id: litre)
        }
        try store.addDefaultData()
        #expect(try store.items().count == 138)
        #expect(!(try store.entries(.unit).map(\.name).contains("L")))
        let milk = try #require(try store.items().first { $0.name == "Milk" })
        #expect(milk.item.unit == nil && milk.unitName == nil)
    }
}
