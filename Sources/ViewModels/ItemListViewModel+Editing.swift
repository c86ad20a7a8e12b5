import Foundation
import GroceryModel
import TextAndFiles

/// What the list's keys change in the store: toggles, quantities, adding, deleting, Clear.
extension ItemListViewModel {
    /// Prepare: puts the selected item on the shopping list, or takes it off. Shop: ticks it as
    /// collected, or unticks it.
    public func toggleSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        do {
            let before = binding.changeCounts()
            message = try undo.recording(store, ids: [row.id], label: { $0 }) {
                switch screen {
                case .prepare:
                    let updated = try store.setListed(row.id, !row.item.listed)
                    return updated.item.listed ? "Listed \(updated.name)" : "Unlisted \(updated.name)"
                case .shop:
                    let updated = try store.setCollected(row.id, !row.item.collected)
                    return updated.item.collected ? "Collected \(updated.name)" : "Not collected: \(updated.name)"
                }
            }
            apply(StoreChanges(ownSave: row.id, before: before, after: binding.changeCounts()))
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// Changes the selected item's quantity by `delta` (`+` and `-`), never below 0; undoable.
    public func changeQuantity(by delta: Double) {
        guard !isStoreChanging, let row = selectedRow else { return }
        let quantity = max(0, row.item.quantity + delta)
        guard quantity != row.item.quantity else {
            message = "\(row.name): the quantity is already 0"
            return
        }
        do {
            message = try undo.recording(store, ids: [row.id], label: { $0 }) {
                var changes = ItemChanges()
                changes.quantity = quantity
                let updated = try store.editItem(row.id.description, changes)
                return "\(updated.name): \(QuantityFormat.exact(updated.item.quantity))"
            }
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// Adds an item, on the shopping list (Model 9's default, as `item add` does), with no home
    /// location or aisle until the user picks one (`e`), and selects it.
    ///
    /// - Throws: why the name is refused (too long, in use): the caller keeps what was typed.
    /// - Returns: the new item, or `nil` while the store changes.
    @discardableResult
    public func addItem(named name: String) throws -> ItemID? {
        guard !isStoreChanging else { return nil }
        let added = try store.addItem(ItemDraft(name: name))  // listed, no locations
        undo.recordAdd(added, in: store)
        message = "Added \(added.name)"
        refreshIfChanged()
        select(added.id)
        return added.id
    }

    /// Asks before deleting the selected item.
    public func requestDeleteSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        dialog = .confirm(title: "Delete \(row.name)?", message: nil, action: "Delete")
        pendingDelete = row.id
    }

    // MARK: - Clear

    /// The screen's Clear: Prepare asks "Clear Entire Shopping List?"; Shop removes the collected
    /// items from the list at once. Either says "Nothing to Clear", with the book's hint, when
    /// there is nothing to do.
    public func requestClear() {
        guard !isStoreChanging else { return }
        do {
            let counts = try store.shoppingListCounts()
            switch screen {
            case .prepare:
                dialog =
                    counts.listed == 0
                    ? .message(title: ClearMessages.nothingToClear, message: ClearMessages.prepareNothingListed)
                    : .confirm(title: ClearMessages.prepareQuestion, message: nil, action: "Clear")
            case .shop:
                if counts.listed == 0 {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopEmpty)
                } else if counts.collected == 0 {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopNothingCollected)
                } else {
                    message = try undo.recording(
                        store, ids: try store.shoppingListIDs(collectedOnly: true), label: { $0 }
                    ) {
                        let count = try store.clearCollected()
                        return "Removed \(count) collected item\(count == 1 ? "" : "s") from the list"
                    }
                    refreshIfChanged()
                }
            }
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// The answer to the dialog: `true` for its action, `false` to cancel (or OK a message).
    public func answerDialog(_ accepted: Bool) {
        let deleting = pendingDelete
        defer {
            dialog = nil
            pendingDelete = nil
        }
        guard accepted, case .confirm = dialog, !isStoreChanging else { return }
        do {
            if let deleting {
                message = try undo.recording(store, ids: [deleting], withPhotos: true, label: { $0 }) {
                    "Deleted \(try store.removeItem(deleting.description).name)"
                }
            } else if screen == .prepare {
                message = try undo.recording(store, ids: try store.shoppingListIDs(), label: { $0 }) {
                    let count = try store.clearListed()
                    return "Cleared \(count) item\(count == 1 ? "" : "s") from the shopping list"
                }
            }
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }
}
