import Foundation
import Testing
import TestSupport
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
}
