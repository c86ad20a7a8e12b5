import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

@Suite("The simple item list's view model")
struct ItemListViewModelTests {
    let directory = TemporaryDirectory("viewmodel")

    func store() throws -> GroceryStore {
        let store = try GroceryStore.temporary(in: directory)
        for (name, home) in [("Milk", "Fridge"), ("apples", "Fruit Bowl"), ("Butter", "Fridge"), ("Candles", nil)] {
            var draft = ItemDraft(name: name)
            draft.homeLocation = home
            draft.listed = false
            try store.addItem(draft)
        }
        return store
    }

    @Test func itemsAreGroupedByHomeLocationWithUnknownLast() throws {
        let model = ItemListViewModel(store: try store(), device: "kitchen")
        #expect(model.refreshIfChanged())
        #expect(model.sections.map(\.title) == ["Fridge", "Fruit Bowl", "Unknown location"])
        #expect(model.namesBySection == [["Butter", "Milk"], ["apples"], ["Candles"]])
        #expect(!model.refreshIfChanged(), "nothing changed, nothing refetched")
    }

    @Test func togglingListsAndUnlistsTheSelectedItem() throws {
        let store = try store()
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.refreshIfChanged()
        model.moveSelection(by: 1)
        #expect(model.selectedRow?.name == "Milk")
        model.toggleSelected()
        #expect(model.message == "Listed Milk")
        #expect(try store.items(listedOnly: true).map(\.name) == ["Milk"])
        #expect(model.listedCount == 1)
        model.toggleSelected()
        #expect(try store.items(listedOnly: true).isEmpty)
    }

    @Test func theSelectionStaysInRangeAndFollowsItsItem() throws {
        let store = try store()
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.refreshIfChanged()
        model.moveSelection(by: -5)
        #expect(model.selection == 0)
        model.moveSelection(by: 50)
        #expect(model.selectedRow?.name == "Candles")
        model.moveSelection(to: 1)
        #expect(model.selectedRow?.name == "Milk")

        // Another process adds an item that sorts before Milk: the selection stays on Milk.
        let other = try GroceryStore.temporary(in: directory, ids: SequentialIDs(prefix: "bbbbbbbb"))
        var draft = ItemDraft(name: "Beer")
        draft.homeLocation = "Fridge"
        try other.addItem(draft)
        #expect(model.refreshIfChanged())
        #expect(model.selectedRow?.name == "Milk")
        try other.removeItem("Milk")
        try other.removeItem("Candles")
        model.refreshIfChanged()
        #expect(model.selection < model.rowCount)
    }
}
