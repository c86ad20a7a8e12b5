import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

/// The editor's unit and location picker: letters jump to the first entry they spell.
@Suite("Type-ahead in the pickers")
struct PickerTypeAheadTests {
    let directory = TemporaryDirectory("type-ahead")

    func editor() throws -> ItemEditorViewModel {
        let store = try GroceryStore.temporary(in: directory)
        let flour = try store.addItem(ItemDraft(name: "Flour"))
        for name in ["Garage", "Crème Box", "cupboard", "Fridge", "Freezer"] { try store.addEntry(.home, name: name) }
        let editor = try ItemEditorViewModel(store: store, id: flour.id)
        editor.openPicker(for: .homeLocation)
        return editor
    }

    var selected: (ItemEditorViewModel) -> String? { { $0.picker.map { $0.selected.label } } }

    @Test func lettersTypedTogetherSpellANameIgnoringCaseAndAccents() throws {
        let editor = try editor()
        #expect(
            editor.picker?.options.map(\.label) == [
                "(clear)", "Crème Box", "cupboard", "Freezer", "Fridge", "Garage", "new…",
            ])
        #expect(editor.typeAheadInPicker("f", now: 100))
        #expect(selected(editor) == "Freezer", "the first that starts with f")
        #expect(editor.typeAheadInPicker("r", now: 100.3))
        #expect(editor.typeAheadInPicker("I", now: 100.6))
        #expect(selected(editor) == "Fridge", "fri: case ignored")
        #expect(editor.typeAheadInPicker("c", now: 105))
        #expect(selected(editor) == "Crème Box", "after a pause a letter starts anew")
        #expect(
            editor.typeAheadInPicker("r", now: 105.2) && editor.typeAheadInPicker("e", now: 105.4)
                && editor.typeAheadInPicker("m", now: 105.5))
        #expect(selected(editor) == "Crème Box", "creme finds Crème, accents ignored")
        #expect(editor.typeAheadInPicker("u", now: 105.6))
        #expect(selected(editor) == "cupboard", "cremu matches nothing: u starts anew and finds cupboard")
    }

    @Test func aLetterThatMatchesNothingLeavesTheSelectionWhereItWas() throws {
        let editor = try editor()
        editor.movePicker(by: 2)
        #expect(selected(editor) == "cupboard")
        #expect(!editor.typeAheadInPicker("q", now: 10))
        #expect(selected(editor) == "cupboard")
        #expect(editor.picker?.typeAhead.isUnderWay(now: 10.5) == true)
        editor.movePicker(by: 1)
        #expect(editor.picker?.typeAhead.isUnderWay(now: 10.6) == false, "moving ends the typing")
    }

    @Test func slashStartsTypingSoThatKeysLikeGAreLetters() throws {
        let editor = try editor()
        #expect(editor.picker?.typeAhead.isUnderWay(now: 50) == false)
        editor.beginTypeAheadInPicker(now: 50)
        #expect(editor.picker?.typeAhead.isUnderWay(now: 50.5) == true)
        #expect(editor.typeAheadInPicker("g", now: 50.5))
        #expect(selected(editor) == "Garage")
    }
}
