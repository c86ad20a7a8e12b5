import Foundation
import GroceryModel
import TextAndFiles

/// The unit, home location and shop aisle pickers: moving, typing ahead, choosing, and naming a new entry.
extension ItemEditorViewModel {
    /// The catalog each picker field chooses from.
    public static func kind(of field: Field) -> CatalogKind? {
        switch field {
        case .unit: .unit
        case .homeLocation: .home
        case .shopLocation: .shop
        default: nil
        }
    }

    /// Opens the picker of the unit, home location or shop aisle field.
    public func openPicker(for field: Field) {
        guard isOpen, !isStoreChanging, let kind = Self.kind(of: field) else { return }
        do {
            let entries =
                field == .shopLocation && editsAnotherShop ? try store.aisleEntries(in: shop) : try store.entries(kind)
            picker = CatalogPicker(field: field, entries: entries, current: values[field] ?? "")
        } catch {
            message = "Cannot read the \(kind.noun)s: \(ErrorText.reason(error))"
        }
    }

    public func movePicker(by delta: Int) {
        picker?.move(by: delta)
    }

    /// A letter typed in the picker: jumps to the first entry the letters typed spell. Returns
    /// whether one matched.
    @discardableResult
    public func typeAheadInPicker(_ character: Character, now: TimeInterval = Message.now) -> Bool {
        picker?.typeAhead(character, now: now) ?? false
    }

    /// `/` in the picker: the next letters type ahead, even j, k, g and q.
    public func beginTypeAheadInPicker(now: TimeInterval = Message.now) {
        picker?.beginTypeAhead(now: now)
    }

    /// Takes the picker's option: "clear" empties the field, an entry fills it, "new…" asks for
    /// a name (``nameNewEntry(_:)``).
    public func choosePickedOption() {
        guard let picker else { return }
        self.picker = nil
        switch picker.selected {
        case .clear: try? set(picker.field, "")
        case .entry(let name): try? set(picker.field, name)  // a name the store holds
        case .new: namingNewEntry = picker.field
        }
    }

    public func cancelPicker() {
        picker = nil
        namingNewEntry = nil
    }

    /// The name typed after "new…": the entry is created when the item is saved (an entry of
    /// that name already there is used). A blank name changes nothing.
    ///
    /// - Throws: ``FieldError`` for a name that can never be saved; the name is still asked for.
    public func nameNewEntry(_ name: String) throws {
        guard let field = namingNewEntry else { return }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { try set(field, trimmed) }
        namingNewEntry = nil
    }
}
