import Foundation
import GroceryModel
import Testing
import TestSupport
import Ubiquity
@testable import ViewModels

/// The item editor against two real stores that sync through a cloud folder.
@Suite("The item editor")
struct ItemEditorViewModelTests {
    let directory = TemporaryDirectory("editor")
    let cloud = TemporaryDirectory("editor-cloud")

    func peer(_ name: String) throws -> (GroceryStore, CloudSync) {
        let store = try GroceryStore(path: directory.file("\(name).sqlite").path, defaultData: false, peer: "peer-\(name)")
        let layout = try CloudLayout(cloud: cloud.url, account: "default", storeName: "GroceryDude", modelVersion: store.modelVersion)
        return (store, CloudSync(store: store.objects, layout: layout, device: name))
    }

    @Test func aRemoteChangeUpdatesUntouchedFieldsAndKeepsEditedOnes() throws {
        let (here, hereSync) = try peer("here"), (there, thereSync) = try peer("there")
        var draft = ItemDraft(name: "Milk")
        draft.unit = "L"
        draft.note = "skim"
        let milk = try here.addItem(draft)
        try hereSync.sync(); try thereSync.sync()

        let editor = try ItemEditorViewModel(store: here, id: milk.id)
        #expect(editor.values[.unit] == "L")
        editor.set(.note, "whole")
        var remote = ItemChanges()
        remote.note = "oat"
        remote.quantity = 3
        remote.unit = "carton"
        try there.editItem(milk.id.description, remote)
        try thereSync.sync(); try hereSync.sync()

        #expect(editor.refreshIfChanged())
        #expect(editor.values[.note] == "whole", "the user's edit is kept")
        #expect(editor.values[.quantity] == "3" && editor.values[.unit] == "carton", "untouched fields follow")
        editor.save()
        #expect(editor.message == "Saved")
        let saved = try #require(try here.item(id: milk.id))
        #expect(saved.item.note == "whole" && saved.item.quantity == 3 && saved.unitName == "carton",
                "saving wrote only the edited field, not stale values over the imported ones")
    }

    @Test func aRemoteDeleteClosesTheEditor() throws {
        let (here, hereSync) = try peer("here"), (there, thereSync) = try peer("there")
        let bread = try here.addItem(ItemDraft(name: "Bread"))
        try hereSync.sync(); try thereSync.sync()
        let editor = try ItemEditorViewModel(store: here, id: bread.id)
        editor.set(.name, "Rye Bread")
        try there.removeItem(bread.id.description)
        try thereSync.sync(); try hereSync.sync()
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
        editor.set(.name, "   ")
        editor.save()
        #expect(try store.item(id: tea.id)?.name == "New Item")
        editor.set(.quantity, "lots")
        editor.save()
        #expect(editor.message?.hasPrefix("invalid quantity") == true)
    }

    @Test func aTransitionMidEditSavesTheEditThenRefetchesFromTheNewStore() throws {
        let old = try GroceryStore.temporary(in: directory, name: "old")
        let eggs = try old.addItem(ItemDraft(name: "Eggs"))
        let editor = try ItemEditorViewModel(store: old, id: eggs.id)
        editor.set(.quantity, "12")
        #expect(editor.hasUnsavedChanges)
        editor.storeWillChange()
        #expect(!editor.hasUnsavedChanges, "saved into the store that is going away")
        #expect(try old.item(id: eggs.id)?.item.quantity == 12)
        editor.set(.note, "ignored")
        #expect(editor.values[.note] == "", "input is off during the transition")

        // The new store holds the same object (the fallback's records moved into the cloud store).
        let new = try GroceryStore.temporary(in: directory, name: "new")
        try new.objects.copyObjects(from: old.objects, author: "move")
        editor.storeDidChange(to: new)
        #expect(editor.isOpen && editor.values[.quantity] == "12")
        editor.set(.note, "free range")
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
        editor.nameNewEntry("  Pantry ")
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
        try Data(repeating: 0xFF, count: 2048).write(to: photo)
        editor.attachPhoto(fromFile: photo.path)
        #expect(editor.photoSize == 2048)
        #expect(editor.photoDescription == "Photo: 2 KB")
        #expect(try store.item(id: cake.id)?.photoSize == 2048)

        editor.attachPhoto(fromFile: directory.file("missing.jpg").path)
        #expect(editor.message == "No such file: \(directory.file("missing.jpg").path)")
        editor.attachPhoto(fromFile: directory.url.path)
        #expect(editor.message?.hasPrefix("No such file") == true, "a folder is not a photo")
        try Data().write(to: directory.file("empty.jpg"))
        editor.attachPhoto(fromFile: directory.file("empty.jpg").path)
        #expect(editor.message == "Photo not attached: invalid photo: the file is empty")
        #expect(editor.photoSize == 2048, "a bad file changes nothing")

        editor.removePhoto()
        #expect(editor.photoSize == nil)
        #expect(try store.item(id: cake.id)?.photoSize == nil)
    }
}
