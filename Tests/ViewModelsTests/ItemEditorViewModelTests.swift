import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

@testable import ViewModels

/// The item editor against two real stores that sync through a cloud folder.
@Suite("The item editor")
struct ItemEditorViewModelTests {
    let directory = TemporaryDirectory("editor")
    let cloud = TemporaryDirectory("editor-cloud")

    func peer(_ name: String) throws -> (GroceryStore, CloudSync) {
        let store = try GroceryStore(
            path: directory.file("\(name).sqlite").path, defaultData: false, peer: "peer-\(name)")
        let layout = try CloudLayout(
            cloud: cloud.url, account: "default", storeName: "GroceryDude", modelVersion: store.modelVersion)
        return (store, CloudSync(store: store.objects, layout: layout, device: name))
    }

    @Test func aRemoteChangeUpdatesUntouchedFieldsAndKeepsEditedOnes() throws {
        let (here, hereSync) = try peer("here")
        let (there, thereSync) = try peer("there")
        var draft = ItemDraft(name: "Milk")
        draft.unit = "L"
        draft.note = "skim"
        let milk = try here.addItem(draft)
        try hereSync.sync()
        try thereSync.sync()

        let editor = try ItemEditorViewModel(store: here, id: milk.id)
        #expect(editor.values[.unit] == "L")
        try editor.set(.note, "whole")
        var remote = ItemChanges()
        remote.note = "oat"
        remote.quantity = 3
        remote.unit = "carton"
        try there.editItem(milk.id.description, remote)
        try thereSync.sync()
        try hereSync.sync()

        #expect(editor.refreshIfChanged())
        #expect(editor.values[.note] == "whole", "the user's edit is kept")
        #expect(editor.values[.quantity] == "3" && editor.values[.unit] == "carton", "untouched fields follow")
        editor.save()
        #expect(editor.message == "Saved Milk")
        let saved = try #require(try here.item(id: milk.id))
        #expect(
            saved.item.note == "whole" && saved.item.quantity == 3 && saved.unitName == "carton",
            "saving wrote only the edited field, not stale values over the imported ones")
    }

    /// Another device changes the field being edited: the editor marks it with who set what
    /// when, and `s` asks — keep yours, or take theirs; nothing is overwritten unseen.
    @Test func aRemoteChangeToTheFieldBeingEditedIsShownAndSavingAsks() throws {
        let (here, hereSync) = try peer("here")
        let (there, thereSync) = try peer("there")
        let milk = try here.addItem(ItemDraft(name: "Milk"))
        try hereSync.sync()
        try thereSync.sync()
        for keepMine in [true, false] {
            let editor = try ItemEditorViewModel(store: here, id: milk.id)
            try editor.set(.quantity, "10")
            try editor.set(.note, "mine")
            var remote = ItemChanges()
            remote.quantity = keepMine ? 2 : 4
            try there.editItem(milk.id.description, remote)
            try thereSync.sync()
            try hereSync.sync()
            // The import's message reaches the app before the editor reads the store, or after
            // it (the import commits, then posts): either way the mark names the device.
            if !keepMine {
                editor.refreshIfChanged()
                #expect(editor.remoteChanges[.quantity]?.by == "another device", "not known yet")
            }
            editor.noteImport(by: ["phone"], changedThisItem: true)
            let mark = try #require(editor.remoteChanges[.quantity])
            #expect(mark.by == "phone" && mark.value == (keepMine ? "2" : "4"), "\(mark)")
            #expect(mark.summary.hasPrefix("phone set \(keepMine ? 2 : 4) at "))
            #expect(editor.remoteChanges[.note] == nil, "untouched elsewhere: no mark")
            #expect(!editor.requestSave(), "asks first")
            guard case .choice(let title, let message, let decline, let accept)? = editor.dialog else {
                Issue.record("expected the question, got \(String(describing: editor.dialog))")
                return
            }
            #expect(
                title == "Changed on Another Device" && message.contains("yours is 10") && decline == "Theirs"
                    && accept == "Yours")
            #expect(try here.item(id: milk.id)?.item.quantity == (keepMine ? 2 : 4), "nothing saved while it asks")
            #expect(editor.answerRemoteChanges(keepMine: keepMine))
            let saved = try #require(try here.item(id: milk.id))
            #expect(saved.item.quantity == (keepMine ? 10 : 4) && saved.item.note == "mine", "\(saved.item)")
            try hereSync.sync()
            try thereSync.sync()
        }
    }

    /// With a shop shown other than the default, the aisle field is that shop's: it reads and
    /// saves the item's aisle there, and leaves the item's shop aisle (the default shop's) alone.
    @Test func theAisleFieldIsTheShownShops() throws {
        let (store, _) = try peer("here")
        var draft = ItemDraft(name: "Milk")
        draft.shopLocation = "Dairy"
        let milk = try store.addItem(draft)
        let aldi = try store.addShop(name: "Aldi")
        try store.setAisle(of: "Milk", in: aldi.id, to: "Aisle 1")
        let editor = try ItemEditorViewModel(store: store, id: milk.id, shop: aldi.id, shopName: aldi.name)
        #expect(editor.values[.shopLocation] == "Aisle 1" && editor.label(of: .shopLocation) == "Aldi aisle")
        try editor.set(.shopLocation, "Aisle 9")
        #expect(editor.save())
        #expect(try store.aisleName(of: milk.id, in: aldi.id) == "Aisle 9")
        #expect(try store.item(id: milk.id)?.shopLocationName == "Dairy", "the default shop's aisle stays")
        editor.openPicker(for: .shopLocation)
        #expect(editor.picker?.options.map(\.label).contains("Aisle 1") == true, "Aldi's aisles to pick from")
        #expect(editor.picker?.options.map(\.label).contains("Dairy") == false)
    }

    @Test func aRemoteDeleteClosesTheEditor() throws {
        let (here, hereSync) = try peer("here")
        let (there, thereSync) = try peer("there")
        let bread = try here.addItem(ItemDraft(name: "Bread"))
        try hereSync.sync()
        try thereSync.sync()
        let editor = try ItemEditorViewModel(store: here, id: bread.id)
        try editor.set(.name, "Rye Bread")
        try there.removeItem(bread.id.description)
        try thereSync.sync()
        try hereSync.sync()
        editor.refreshIfChanged()
        #expect(!editor.isOpen)
        #expect(editor.closedBecause == "Rye Bread was deleted on another device")
        editor.save()
        #expect(try here.items().isEmpty, "nothing is written for a deleted item")
    }

    @Test func openingMarksTheItemModifiedAndABlankNameBecomesNewItem() throws {
        let clock = TestClock()
        let store = try GroceryStore.temporary(in: directory, clock: clock)
        let tea = try store.addItem(ItemDraft(name: "Tea"))
        clock.advance(by: 60)
        let editor = try ItemEditorViewModel(store: store, id: tea.id)
        #expect(try store.item(id: tea.id)?.item.modified == clock.now())
        try editor.set(.name, "   ")
        editor.save()
        #expect(try store.item(id: tea.id)?.name == "New Item")
    }

    @Test func aTransitionMidEditSavesTheEditThenRefetchesFromTheNewStore() throws {
        let old = try GroceryStore.temporary(in: directory, name: "old")
        let eggs = try old.addItem(ItemDraft(name: "Eggs"))
        let editor = try ItemEditorViewModel(store: old, id: eggs.id)
        try editor.set(.quantity, "12")
        #expect(editor.hasUnsavedChanges)
        editor.storeWillChange()
        #expect(!editor.hasUnsavedChanges, "saved into the store that is going away")
        #expect(try old.item(id: eggs.id)?.item.quantity == 12)
        try editor.set(.note, "ignored")
        #expect(editor.values[.note] == "", "input is off during the transition")

        // The new store holds the same object (the fallback's records moved into the cloud store).
        let new = try GroceryStore.temporary(in: directory, name: "new")
        try new.objects.copyObjects(from: old.objects, author: "move")
        editor.storeDidChange(to: new)
        #expect(editor.isOpen && editor.values[.quantity] == "12")
        try editor.set(.note, "free range")
        editor.save()
        #expect(try new.item(id: eggs.id)?.item.note == "free range")

        // A store without the item closes the editor.
        editor.storeWillChange()
        editor.storeDidChange(to: try GroceryStore.temporary(in: directory, name: "other"))
        #expect(editor.closedBecause == "Eggs is not in this store")
    }

    @Test func pickersOfferClearTheEntriesAndNew() throws {
        let store = try GroceryStore.temporary(in: directory)
        var draft = ItemDraft(name: "Flour")
        draft.unit = "kg"
        let flour = try store.addItem(draft)
        try store.addEntry(.unit, name: "g")
        let editor = try ItemEditorViewModel(store: store, id: flour.id)

        editor.openPicker(for: .unit)
        let picker = try #require(editor.picker)
        #expect(picker.options == [.clear, .entry("g"), .entry("kg"), .new])
        #expect(picker.selected == .entry("kg"), "the item's unit is selected")
        editor.movePicker(by: -1)
        editor.choosePickedOption()
        #expect(editor.values[.unit] == "g" && editor.picker == nil)

        editor.openPicker(for: .homeLocation)
        #expect(editor.picker?.options == [.clear, .new])
        editor.movePicker(by: 5)
        editor.choosePickedOption()
        #expect(editor.namingNewEntry == .homeLocation)
        try editor.nameNewEntry("  Pantry ")
        #expect(editor.values[.homeLocation] == "Pantry")
        editor.save()
        let saved = try #require(try store.item(id: flour.id))
        #expect(saved.unitName == "g" && saved.homeLocationName == "Pantry", "the new location was created on save")

        editor.openPicker(for: .unit)
        editor.movePicker(by: -10)  // to "clear", the first option
        editor.choosePickedOption()
        editor.save()
        #expect(try store.item(id: flour.id)?.unitName == nil, "clear takes the unit off the item")
        #expect(try store.entries(.unit).map(\.name) == ["g", "kg"], "the unit itself is kept")
    }

    @Test func aPhotoIsAttachedFromAFileAndItsSizeShown() throws {
        let store = try GroceryStore.temporary(in: directory)
        let cake = try store.addItem(ItemDraft(name: "Cake"))
        let editor = try ItemEditorViewModel(store: store, id: cake.id)
        #expect(editor.photoDescription == "No photo")
        let photo = directory.file("cake.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0, count: 2044)).write(to: photo)  // a JPEG's start
        try editor.attachPhoto(fromFile: photo.path)
        #expect(editor.shownPhotoSize == 2048 && editor.photoDescription == "Photo: 2 KB (unsaved)")
        #expect(try store.item(id: cake.id)?.photoSize == nil, "an edit like any: nothing saved yet")
        #expect(editor.hasUnsavedChanges)
        editor.askBeforeLeaving()
        #expect(editor.dialog?.title == "Unsaved changes to Cake")
        if case .choice(_, let message, _, _)? = editor.dialog { #expect(message.contains("Photo"), "\(message)") }
        editor.dismissDialog()
        #expect(editor.save())
        #expect(editor.photoSize == 2048 && editor.photoDescription == "Photo: 2 KB")
        #expect(try store.item(id: cake.id)?.photoSize == 2048)

        // Each refusal says why, for the line the path was typed on.
        let missing = directory.file("missing.jpg").path
        #expect(throws: PhotoFile.Refusal(description: "No such file: \(missing)")) {
            try editor.attachPhoto(fromFile: missing)
        }
        #expect(throws: PhotoFile.Refusal(description: "\(directory.url.path) is a folder, not a photo")) {
            try editor.attachPhoto(fromFile: directory.url.path)
        }
        try Data().write(to: directory.file("empty.jpg"))
        #expect(throws: PhotoFile.Refusal(description: "\(directory.file("empty.jpg").path) is empty")) {
            try editor.attachPhoto(fromFile: directory.file("empty.jpg").path)
        }
        try Data("shopping list\n".utf8).write(to: directory.file("notes.jpg"))
        #expect(throws: PhotoFile.Refusal.self, "a name ending in .jpg does not make a photo") {
            try editor.attachPhoto(fromFile: directory.file("notes.jpg").path)
        }
        #expect(editor.photoSize == 2048, "a bad file changes nothing")

        // Removing asks; Cancel keeps it; once removed, it goes with the save.
        editor.requestRemovePhoto()
        #expect(editor.dialog?.title == "Remove the Photo?")
        editor.answerRemovePhoto(false)
        #expect(editor.photoChange == nil && editor.shownPhotoSize == 2048)
        editor.requestRemovePhoto()
        editor.answerRemovePhoto(true)
        #expect(editor.shownPhotoSize == nil)
        #expect(try store.item(id: cake.id)?.photoSize == 2048)
        #expect(editor.save())
        #expect(try store.item(id: cake.id)?.photoSize == nil)
    }

    /// Discard drops a photo attached in the editor; undo takes back a saved one with the fields.
    @Test func aPhotoIsDiscardedWithTheEditAndUndoneWithTheSave() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        let store = app.coordinator.current.store
        let cake = try store.addItem(ItemDraft(name: "Cake"))
        app.show(.prepare)
        let photo = directory.file("cake.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0, count: 2044)).write(to: photo)
        app.openEditor(cake.id)
        try app.editor?.attachPhoto(fromFile: photo.path)
        app.closeEditor(discard: true)
        #expect(try store.item(id: cake.id)?.photoSize == nil, "Discard keeps the item without it")
        app.openEditor(cake.id)
        try app.editor?.attachPhoto(fromFile: photo.path)
        try app.editor?.set(.quantity, "3")
        app.closeEditor()
        #expect(try store.item(id: cake.id)?.photoSize == 2048)
        app.undo()
        #expect(app.statusMessage == "Undid Edited Cake")
        let undone = try #require(try store.item(id: cake.id))
        #expect(undone.photoSize == nil && undone.item.quantity == 1, "the photo and the quantity, undone together")
    }

    // MARK: - Refusals that name the field

    @Test func valuesThatCanNeverBeSavedAreRefusedWhenTypedAndTheFieldKeepsItsValue() throws {
        let store = try GroceryStore.temporary(in: directory)
        let tea = try store.addItem(ItemDraft(name: "Tea"))
        let editor = try ItemEditorViewModel(store: store, id: tea.id)
        typealias FieldError = ItemEditorViewModel.FieldError
        #expect(throws: FieldError(field: .quantity, reason: "\"lots\" is not a number")) {
            try editor.set(.quantity, "lots")
        }
        #expect(throws: FieldError(field: .quantity, reason: "-1 is negative")) { try editor.set(.quantity, "-1") }
        let long = String(repeating: "x", count: 207)
        #expect(throws: FieldError(field: .name, reason: "it is 207 characters long; the limit is 200")) {
            try editor.set(.name, long)
        }
        #expect(throws: FieldError(field: .note, reason: "it is 201 characters long; the limit is 200")) {
            try editor.set(.note, String(repeating: "n", count: 201))
        }
        #expect(
            FieldError(field: .quantity, reason: "\"lots\" is not a number").description
                == "Quantity: \"lots\" is not a number")
        #expect(
            editor.values[.quantity] == "1" && editor.values[.name] == "Tea" && editor.touched.isEmpty,
            "nothing was taken")
        try editor.set(.quantity, "0,5")
        #expect(editor.save())
        #expect(try store.item(id: tea.id)?.item.quantity == 0.5, "the same parser as the command line's")

        // A new unit's name, typed after "new…", is checked alike and still asked for.
        editor.openPicker(for: .unit)
        editor.movePicker(by: 10)
        editor.choosePickedOption()
        #expect(throws: FieldError.self) { try editor.nameNewEntry(long) }
        #expect(editor.namingNewEntry == .unit, "the name is still asked for")
        try editor.nameNewEntry("tin")
        #expect(editor.namingNewEntry == nil && editor.values[.unit] == "tin")
    }

    @Test func aSaveTheStoreRefusesNamesTheFieldAndKeepsEveryEdit() throws {
        let store = try GroceryStore.temporary(in: directory)
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        try store.addItem(ItemDraft(name: "Eggs"))
        let editor = try ItemEditorViewModel(store: store, id: milk.id)
        try editor.set(.name, "eggs")
        try editor.set(.quantity, "2")
        #expect(!editor.save())
        let error = try #require(editor.fieldError)
        #expect(error.field == .name)
        #expect(error.description == "Name: an item named \"Eggs\" exists already")
        #expect(editor.message == "Not saved: Name: an item named \"Eggs\" exists already")
        #expect(
            editor.hasUnsavedChanges && editor.values[.name] == "eggs" && editor.values[.quantity] == "2",
            "the edits are kept")
        #expect(try store.item(id: milk.id)?.item.quantity == 1, "nothing was written")

        try editor.set(.quantity, "3")
        #expect(editor.fieldError?.field == .name, "another field's change leaves the name wrong")
        try editor.set(.name, "Oat Milk")
        #expect(editor.fieldError == nil)
        #expect(editor.save())
        #expect(editor.message == "Saved Oat Milk")
        let saved = try #require(try store.item(id: milk.id))
        #expect(saved.name == "Oat Milk" && saved.item.quantity == 3)
    }

    @Test func leavingWithUnsavedChangesAsksFirst() throws {
        let store = try GroceryStore.temporary(in: directory)
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        let editor = try ItemEditorViewModel(store: store, id: milk.id)
        editor.askBeforeLeaving()
        #expect(editor.dialog == nil, "nothing to ask about")
        try editor.set(.quantity, "2")
        try editor.set(.name, "Oat Milk")
        editor.askBeforeLeaving()
        #expect(
            editor.dialog
                == .choice(
                    title: "Unsaved changes to Milk", message: "Changed: Name, Quantity. Esc goes back to editing.",
                    decline: "Discard", accept: "Save"))
        editor.storeWillChange()
        #expect(editor.dialog == nil, "a transition saves the edits: nothing is left to ask about")
    }

    @Test func photoFilesAreKnownByTheirFirstBytes() {
        let ascii = { (text: String) in Data(text.utf8) }
        for image in [
            Data([0xFF, 0xD8, 0xFF, 0xDB]), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]),
            ascii("GIF89a..."),
            ascii("RIFF\0\0\0\0WEBPVP8 "), ascii("\0\0\0\u{18}ftypheic"), ascii("BM6\0"),
            Data([0x49, 0x49, 0x2A, 0x00, 8]),
        ] {
            #expect(PhotoFile.isImage(image), "\([UInt8](image))")
        }
        for other in [ascii("%PDF-1.7"), ascii("\0\0\0\u{18}ftypisom"), ascii("hello"), Data([0xFF])] {
            #expect(!PhotoFile.isImage(other), "\([UInt8](other))")
        }
    }
}
