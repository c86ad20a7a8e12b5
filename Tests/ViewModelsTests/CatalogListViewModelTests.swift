import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

@Suite("Units and locations screens")
struct CatalogListViewModelTests {
    let directory = TemporaryDirectory("catalog-vm")

    @Test func addRenameAndDeleteWithConfirmationKeepTheItems() throws {
        let store = try GroceryStore.temporary(in: directory)
        var draft = ItemDraft(name: "Flour")
        draft.unit = "kg"
        try store.addItem(draft)
        let units = CatalogListViewModel(store: store, kind: .unit)
        units.refreshIfChanged()
        #expect(units.entries.map(\.name) == ["kg"])
        try units.add("g")
        #expect(units.entries.map(\.name) == ["g", "kg"])
        #expect(units.selectedEntry?.name == "g")
        #expect(throws: GroceryError.alreadyExists(kind: "unit", name: "kg"), "a name in use is refused") {
            try units.add("KG")
        }
        #expect(units.message == "Added g", "the refusal is the caller's to show, beside what was typed")
        units.moveSelection(by: 1)
        #expect(throws: GroceryError.alreadyExists(kind: "unit", name: "g")) { try units.renameSelected(to: "G") }
        try units.renameSelected(to: "kilogram")
        #expect(units.selectedEntry?.name == "kilogram", "the selection follows the entry")
        units.requestDeleteSelected()
        #expect(
            units.dialog
                == .confirm(
                    title: "Delete kilogram?", message: "1 item will lose it; the items are kept.", action: "Delete"))
        units.answerDialog(false)
        #expect(units.entries.count == 2)
        units.requestDeleteSelected()
        units.answerDialog(true)
        #expect(units.entries.map(\.name) == ["g"])
        #expect(try store.items().map(\.name) == ["Flour"])
        #expect(try store.items().first?.unitName == nil)
    }
}
