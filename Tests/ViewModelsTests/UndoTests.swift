import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

@testable import ViewModels

/// `u` undoes the last toggle, edit, delete or clear made on this device.
@Suite("Undo")
struct UndoTests {
    let directory = TemporaryDirectory("undo")

    @Test func toggleEditDeleteAndClearAreUndoneInTurn() throws {
        let app = AppModel(
            coordinator: try StoreCoordinator(
                configuration: try StoreConfiguration.temporary(in: directory, device: "kitchen"), claimDevice: { true }
            ))
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
        // A delete is final on every device: the item comes back as a new object, the same in
        // every other way, and the earlier changes' undo follows it there.
        let back = try #require(try store.items().first { $0.name == "Milk" })
        #expect(back.id != milk.id)
        #expect(
            back.unitName == "L" && back.homeLocationName == "Fridge" && back.photoSize == 3 && back.item.quantity == 3,
            "the item comes back with its links and photo")
        app.undo()
        #expect(try store.item(id: back.id)?.item.quantity == 1)
        app.undo()
        #expect(Set(try store.shoppingListIDs()).count == 2, "the clear is undone: both listed again")
        app.undo()
        #expect(try store.item(id: back.id)?.item.listed == false)
        #expect(try store.items().count == 2, "nothing was doubled")
        app.undo()
        #expect(app.statusMessage == "Nothing to undo")
    }

    @Test func redoPutsBackWhatUndoTookAwayUntilANewChange() throws {
        let app = AppModel(
            coordinator: try StoreCoordinator(
                configuration: try StoreConfiguration.temporary(in: directory, device: "kitchen"), claimDevice: { true }
            ))
        let store = app.coordinator.current.store
        var draft = ItemDraft(name: "Milk")
        draft.listed = false
        let milk = try store.addItem(draft)
        try store.setPhoto(milk.id, Data([1, 2, 3]))
        app.show(.prepare)
        app.prepare.select(milk.id)
        app.prepare.toggleSelected()
        app.prepare.select(milk.id)
        app.prepare.requestDeleteSelected()
        app.answerDialog(true)
        #expect(try store.item(id: milk.id) == nil)

        app.undo()  // the delete
        app.undo()  // the toggle
        func milkNow() throws -> ItemRow? { try store.items().first { $0.name == "Milk" } }
        #expect(try milkNow()?.item.listed == false)
        app.redo()
        #expect(app.statusMessage == "Redid Listed Milk")
        #expect(try milkNow()?.item.listed == true)
        app.redo()
        #expect(app.statusMessage == "Redid Deleted Milk")
        #expect(try milkNow() == nil, "the delete is made again")
        app.redo()
        #expect(app.statusMessage == "Nothing to redo")

        app.undo()
        let back = try #require(try milkNow())
        #expect(back.photoSize == 3, "undoing the redone delete brings the photo back too")
        #expect(try store.items().count == 1)
        app.prepare.select(back.id)
        app.prepare.toggleSelected()  // a new change: what was undone can no longer be redone
        app.redo()
        #expect(app.statusMessage == "Nothing to redo")
    }

    @Test func plusAndMinusChangeTheQuantityNeverBelowZeroAndUndo() throws {
        let app = AppModel(
            coordinator: try StoreCoordinator(
                configuration: try StoreConfiguration.temporary(in: directory, device: "kitchen"), claimDevice: { true }
            ))
        let store = app.coordinator.current.store
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        app.show(.shop)
        app.shop.select(milk.id)
        app.shop.changeQuantity(by: 1)
        app.shop.changeQuantity(by: 1)
        #expect(try store.item(id: milk.id)?.item.quantity == 3)
        #expect(app.shop.message == "Milk: 3")
        for _ in 0..<5 { app.shop.changeQuantity(by: -1) }
        #expect(try store.item(id: milk.id)?.item.quantity == 0)
        #expect(app.shop.message == "Milk: the quantity is already 0")
        app.undo()
        #expect(try store.item(id: milk.id)?.item.quantity == 1)
    }

    @Test func anUndoneDeleteReachesTheOtherDevices() throws {
        func device(_ name: String) throws -> AppModel {
            let config = try StoreConfiguration.temporary(in: directory, device: name)
            try config.changeSettings { $0.cloudEnabled = true }
            let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
            try app.coordinator.prepareForCommand()
            return app
        }
        let kitchen = try device("kitchen")
        let phone = try device("phone")
        let milk = try kitchen.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        try phone.coordinator.prepareForCommand()
        #expect(try phone.coordinator.current.store.items().map(\.name) == ["Milk"])

        kitchen.show(.prepare)
        kitchen.prepare.select(milk.id)
        kitchen.prepare.requestDeleteSelected()
        kitchen.answerDialog(true)
        try phone.coordinator.prepareForCommand()
        #expect(try phone.coordinator.current.store.items().isEmpty)

        kitchen.undo()
        try phone.coordinator.prepareForCommand()
        #expect(try phone.coordinator.current.store.items().map(\.name) == ["Milk"], "the phone sees it back too")
        #expect(
            try kitchen.coordinator.current.store.items().map(\.id)
                == (try phone.coordinator.current.store.items().map(\.id)))
    }
}
