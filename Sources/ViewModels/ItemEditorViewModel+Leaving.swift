import Foundation
import GroceryModel

/// Leaving the editor: asking first when edits are unsaved.
extension ItemEditorViewModel {
    /// `q` or Esc with unsaved changes: asks "Unsaved changes to Milk" — Save, Discard, or
    /// Esc back to editing. The app model acts on the answer.
    public func askBeforeLeaving() {
        guard hasUnsavedChanges else { return }
        let changed = (Field.allCases.filter(touched.contains).map(\.label) + (photoChange == nil ? [] : ["Photo"]))
            .joined(separator: ", ")
        dialog = .choice(
            title: "Unsaved changes to \(savedName)",
            message: "Changed: \(changed). Esc goes back to editing.", decline: "Discard", accept: "Save")
    }

    /// The item's name as saved (the edited one may differ).
    public var savedName: String { stored[.name] ?? values[.name] ?? "the item" }

    /// The question went away (answered, or Esc).
    public func dismissDialog() {
        dialog = nil
        askingToRemovePhoto = false
        askingAboutRemoteChanges = (false, false)
    }

    static func fields(of row: ItemRow) -> [Field: String] {
        let quantity = QuantityFormat.exact(row.item.quantity)
        return [
            .name: row.name, .quantity: quantity, .unit: row.unitName ?? "", .homeLocation: row.homeLocationName ?? "",
            .shopLocation: row.shopLocationName ?? "", .note: row.item.note ?? "",
        ]
    }
}
