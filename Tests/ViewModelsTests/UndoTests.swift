import Foundation
import GroceryModel
import StoreLifecycle
import Testing
import TestSupport
import Ubiquity
@testable import ViewModels

/// `u` undoes the last toggle, edit, delete or clear made on this device.
@Suite("Undo")
struct UndoTests {
    let directory = TemporaryDirectory("undo")

    @Test func toggleEditDeleteAndClearAreUndoneInTurn() throws {
        let app = AppModel(coordinator: try StoreCoordinator(
            configuration: try StoreConfiguration.temporary(in: directory, device: "kitchen"), claimDevice: { true }))
        let store = app.coordinator.current.store
        var draft = ItemDraft(name: "Milk")
        draft.unit = "L"
        draft.homeLocation = "Fridge"
        draft.listed = false
        let milk = try store.addItem(draft)
        try store.setPhoto(milk.id, Data([1, 2, 3]))
        try store.addItem(ItemDraft(name: "Bread"))  // listed
        app.show(.prepare)
        app.prepare.select(milk.id)

        app.prepare.toggleSelected()
        #expect(try store.item(id: milk.id)?.item.listed == true)
        app.prepare.requestClear()
        app.answerDialog(true)
        #expect(try store.shoppingListIDs().isEmpty)
        app.openEditor(milk.id)
        try app.editor?.set(.quantity, "3")
        app.closeEditor()
        #expect(try store.item(id: milk.id)?.item.quantity == 3)
        app.prepare.select(milk.id)
        app.prepare.requestDeleteSelected()
        app.answerDialog(true)
        #expect(try store.item(id: milk.id) == nil)

        app.undo()
        #expect(app.statusMessage == "Undid Deleted Milk")
        let back = try #require(try store.item(id: milk.id))
        #expect(back.unitName == "L" && back.homeLocationName == "Fridge" && back.photoSize == 3 && back.item.quantity == 3,
                "the same item comes back, with its links and photo")
        app.undo()
        #expect(try store.item(id: milk.id)?.item.quantity == 1)
        app.undo()
        #expect(Set(try store.shoppingListIDs()).count == 2, "the clear is undone: both listed again")
        app.undo()
        #expect(try store.item(id: milk.id)?.item.listed == false)
        app.undo()
        #expect(app.statusMessage == "Nothing to undo")
    }
}
