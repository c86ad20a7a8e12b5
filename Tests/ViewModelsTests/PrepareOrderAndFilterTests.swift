import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

/// Prepare's sort order (by home location, or by name) and its "only listed" filter.
@Suite("Prepare's order and filter")
struct PrepareOrderAndFilterTests {
    let directory = TemporaryDirectory("prepare-order")

    func model() throws -> (ItemListViewModel, GroceryStore) {
        let store = try GroceryStore.temporary(in: directory)
        for (name, home, listed) in [
            ("Milk", "Fridge", true), ("apples", "Fruit Bowl", false), ("Butter", "Fridge", false),
            ("Candles", nil, true), ("Éclair", "Fridge", false),
        ] {
            var draft = ItemDraft(name: name)
            draft.homeLocation = home
            draft.listed = listed
            try store.addItem(draft)
        }
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.refreshIfChanged()
        return (model, store)
    }

    @Test func byNameIsOneSectionInTheOrderAPersonReadsAndTheSelectionStaysOnItsItem() throws {
        let (model, _) = try model()
        #expect(model.namesBySection == [["Butter", "Éclair", "Milk"], ["apples"], ["Candles"]])
        model.moveSelection(to: 2)
        #expect(model.selectedRow?.name == "Milk")
        model.order = .byName
        #expect(model.sections.map(\.title) == [ItemListIndex.byNameTitle])
        #expect(model.allNames == ["apples", "Butter", "Candles", "Éclair", "Milk"], "Éclair with the E's")
        #expect(model.selectedRow?.name == "Milk", "the selection follows its item")
        model.order = .byLocation
        #expect(model.namesBySection == [["Butter", "Éclair", "Milk"], ["apples"], ["Candles"]])
    }

    @Test func onlyListedHidesTheRestInEitherOrderAndKeepsToTheFilterAsTheStoreChanges() throws {
        let (model, store) = try model()
        model.moveSelection(to: 1)  // Éclair, not listed
        model.onlyListed = true
        #expect(model.namesBySection == [["Milk"], ["Candles"]])
        #expect(model.selection == 0, "the selected item is hidden: the first row is selected")
        model.order = .byName
        #expect(model.namesBySection == [["Candles", "Milk"]])
        let apples = try #require(try store.items().first { $0.name == "apples" })
        _ = try store.setListed(apples.id.description, true)
        #expect(model.refreshIfChanged())
        #expect(
            model.allNames == ["apples", "Candles", "Milk"], "a newly listed item shows; the filter and order stay")
        model.onlyListed = false
        #expect(model.allNames.count == 5)
    }
}
