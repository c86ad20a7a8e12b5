import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

/// Shop, search, and both Clear actions with the book's messages, against a real store.
@Suite("Prepare and Shop: search and Clear")
struct ShopAndClearTests {
    let directory = TemporaryDirectory("shop")

    func store(_ items: [(String, String?, Bool)]) throws -> GroceryStore {
        let store = try GroceryStore.temporary(in: directory)
        for (name, aisle, listed) in items {
            var draft = ItemDraft(name: name)
            draft.shopLocation = aisle
            draft.homeLocation = "Pantry"
            draft.listed = listed
            try store.addItem(draft)
        }
        return store
    }

    @Test func shopShowsTheListedItemsByAisleAndTogglingCollects() throws {
        let store = try store([
            ("Milk", "Dairy", true), ("Bread", "Bakery", true), ("Tea", "Drinks", false), ("Salt", nil, true),
        ])
        let shop = ItemListViewModel(store: store, device: "kitchen", screen: .shop)
        shop.refreshIfChanged()
        #expect(shop.sections.map(\.title) == ["Bakery", "Dairy", "Unknown location"])
        #expect(shop.allNames == ["Bread", "Milk", "Salt"])
        shop.moveSelection(to: 1)
        shop.toggleSelected()
        #expect(shop.message == "Collected Milk")
        #expect(try store.items().first { $0.name == "Milk" }?.item.collected == true)
    }

    @Test func searchIgnoresCaseAndDiacriticsAndKeepsTheGrouping() throws {
        let store = try store([
            ("Crème fraîche", "Dairy", true), ("Cream", "Dairy", false), ("Ice cream", "Frozen", false),
        ])
        let prepare = ItemListViewModel(store: store, device: "kitchen")
        prepare.searchText = "creme"
        #expect(prepare.allNames == ["Crème fraîche"])
        prepare.searchText = "CREAM"
        #expect(prepare.sections.map(\.title) == ["Pantry"])
        #expect(prepare.allNames == ["Cream", "Ice cream"])
        prepare.searchText = ""
        #expect(prepare.rowCount == 3)
    }

    @Test func prepareClearAsksFirstAndSaysWhenThereIsNothingToClear() throws {
        let store = try store([("Milk", "Dairy", false), ("Bread", "Bakery", false)])
        let prepare = ItemListViewModel(store: store, device: "kitchen")
        prepare.refreshIfChanged()
        prepare.requestClear()
        #expect(prepare.dialog == .message(title: "Nothing to Clear", message: ClearMessages.prepareNothingListed))
        prepare.answerDialog(true)
        #expect(prepare.dialog == nil)

        prepare.toggleSelected()  // Bread is listed
        prepare.requestClear()
        #expect(prepare.dialog == .confirm(title: "Clear Entire Shopping List?", message: nil, action: "Clear"))
        prepare.answerDialog(false)
        #expect(try store.items(listedOnly: true).count == 1, "cancelled: nothing changed")
        prepare.requestClear()
        prepare.answerDialog(true)
        #expect(try store.items(listedOnly: true).isEmpty)
        #expect(prepare.message == "Cleared 1 item from the shopping list")
    }

    @Test func shopClearRemovesTheCollectedItemsOrSaysWhy() throws {
        let empty = ItemListViewModel(store: try store([("Tea", nil, false)]), device: "kitchen", screen: .shop)
        empty.requestClear()
        #expect(empty.dialog == .message(title: "Nothing to Clear", message: ClearMessages.shopEmpty))

        let store = try store([("Milk", "Dairy", true), ("Bread", "Bakery", true)])
        let shop = ItemListViewModel(store: store, device: "kitchen", screen: .shop)
        shop.refreshIfChanged()
        shop.requestClear()
        #expect(shop.dialog == .message(title: "Nothing to Clear", message: ClearMessages.shopNothingCollected))
        shop.answerDialog(true)
        shop.toggleSelected()  // Bread collected
        shop.requestClear()
        #expect(shop.dialog == nil)
        #expect(shop.message == "Removed 1 collected item from the list")
        #expect(shop.allNames == ["Milk"])
        #expect(try store.items().first { $0.name == "Bread" }.map { !$0.item.listed && !$0.item.collected } == true)
    }
}
