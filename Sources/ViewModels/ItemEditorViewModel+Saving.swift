import Foundation
import GroceryModel
import TextAndFiles

/// Saving the touched fields, and naming the field a refused save is about.
extension ItemEditorViewModel {
    /// Saves the touched fields. A blank name becomes "New Item", as in the book.
    ///
    /// A save the store refuses keeps the edits; ``fieldError`` names the field when it is one
    /// field's fault (a name in use).
    ///
    /// - Returns: whether nothing is left unsaved.
    @discardableResult
    public func save() -> Bool {
        guard isOpen, !isStoreChanging, hasUnsavedChanges else {
            remoteChanges.removeAll()
            unattributed.removeAll()
            return !hasUnsavedChanges
        }
        do {
            let changes = try changes()
            let photo = photoChange
            // The fields and the photo, undone together.
            try undo.recording(
                store, ids: [id], withPhotos: photo != nil, label: { (row: ItemRow) in "Edited \(row.name)" }
            ) {
                var row =
                    changes.changesAnything ? try store.editItem(id.description, changes) : try store.item(id: id)
                if editsAnotherShop, touched.contains(.shopLocation) {
                    row = try store.setAisle(of: id.description, in: shop, to: values[.shopLocation] ?? "")
                }
                switch photo {
                case .attach(let data)?: row = try store.setPhoto(id, data)
                case .remove?: row = try store.setPhoto(id, nil)
                case nil: break
                }
                guard let row else { throw GroceryError.notFound(kind: "item", reference: id.description) }
                return row
            }
        } catch {
            let failure = (error as? FieldError) ?? Self.fieldError(of: error)
            fieldError = failure
            message = "Not saved: \(failure.map(String.init(describing:)) ?? ErrorText.reason(error))"
            return false
        }
        touched.removeAll()
        photoChange = nil
        remoteChanges.removeAll()
        unattributed.removeAll()
        fieldError = nil
        refreshIfChanged()
        message = "Saved \(values[.name] ?? "")"
        return true
    }

    /// `s`, or Save when leaving: asks first when another device changed a field being
    /// edited ("phone set 2 at 18:02 — keep yours (10) or take theirs?"); else saves.
    ///
    /// - Returns: whether it saved (not when it asks, or the save failed).
    @discardableResult
    public func requestSave(leaving: Bool = false) -> Bool {
        guard !remoteChanges.isEmpty else { return save() }
        let fields = Field.allCases.filter { remoteChanges[$0] != nil }
        let lines = fields.map { field in
            "\(field.label): \(remoteChanges[field]!.summary) — yours is \(values[field].map { $0.isEmpty ? "(none)" : $0 } ?? "")"
        }
        dialog = .choice(
            title: "Changed on Another Device",
            message: lines.joined(separator: "\n") + "\nKeep yours, or take theirs? Esc goes back to editing.",
            decline: "Theirs", accept: "Yours")
        askingAboutRemoteChanges = (leaving, true)
        return false
    }

    /// The answer to ``requestSave(leaving:)``'s question: keep the user's values (`true`) or
    /// take the other device's for the fields it changed; then saves what is left.
    ///
    /// - Returns: whether the editor may close (when leaving): saved, nothing failed.
    @discardableResult
    public func answerRemoteChanges(keepMine: Bool) -> Bool {
        dialog = nil
        askingAboutRemoteChanges = (false, false)
        if !keepMine {
            for field in remoteChanges.keys {
                values[field] = stored[field]
                touched.remove(field)
            }
        }
        remoteChanges.removeAll()
        unattributed.removeAll()
        return save()
    }

    /// The touched fields as the store's changes.
    func changes() throws -> ItemChanges {
        var changes = ItemChanges()
        for field in touched {
            let text = values[field] ?? ""
            switch field {
            case .name:
                changes.name = text.trimmingCharacters(in: .whitespaces).isEmpty ? GrocerySchema.defaultItemName : text
            case .quantity:
                do { changes.quantity = try Validation.quantity(text: text) } catch {
                    throw FieldError(field: .quantity, reason: Self.reason(error))
                }
            case .unit: changes.unit = text
            case .homeLocation: changes.homeLocation = text
            case .shopLocation: if !editsAnotherShop { changes.shopLocation = text }
            case .note: changes.note = text.trimmingCharacters(in: .whitespaces).isEmpty ? "" : text
            }
        }
        return changes
    }

    /// The field a refused save is about, when it is one field's fault.
    static func fieldError(of error: Error) -> FieldError? {
        guard let refusal = error as? GroceryError else { return nil }
        let field: Field? =
            switch refusal {
            case .alreadyExists("item", _), .invalidName("item name", _): .name
            case .invalidQuantity: .quantity
            case .invalidName("note", _): .note
            case .invalidName(let subject, _):
                Field.allCases.first { kind(of: $0).map { "\($0.noun) name" } == subject }
            case .duplicates(let noun, _, _): Field.allCases.first { kind(of: $0)?.noun == noun }
            default: nil
            }
        return field.map { FieldError(field: $0, reason: reason(refusal)) }
    }
}
