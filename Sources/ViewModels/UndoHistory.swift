import Foundation
import GroceryModel
import TextAndFiles

/// The changes made on this device that `u` can undo and `U` (or Ctrl-R) redo: an add, a
/// toggle, an edit, a delete, a clear. Each keeps the items as they were before it; undoing puts them back
/// in one save (which syncs like any change) and keeps how they were just before, for redo. A
/// new change forgets what could be redone. Emptied when the store changes: its items may not
/// be in the next one.
public final class UndoHistory {
    public struct Change: Sendable {
        /// What the change was ("Listed Milk"), for "Undid …".
        public let label: String
        /// The items it concerned; those missing from `before` did not exist then.
        let ids: [ItemID]
        let before: [ItemSnapshot]
        /// For an add: the item just after it. Undoing deletes the item; when another device
        /// changed it since, the app asks first (``questionBeforeUndo(in:)``).
        var added: ItemSnapshot?
    }

    public private(set) var changes: [Change] = []
    /// Changes undone, the last undone last: what redo puts back.
    public private(set) var redoable: [Change] = []
    /// How many changes are kept.
    public let limit: Int
    /// Items deleted and brought back by undo or redo come back under new IDs: the ID each
    /// earlier one now goes by.
    private var aliases = ItemAliases()

    public init(limit: Int = 50) { self.limit = limit }

    /// Records the items' state before a change to them.
    func record(_ label: String, ids: [ItemID], before: [ItemSnapshot], added: ItemSnapshot? = nil) {
        guard !before.isEmpty || added != nil else { return }
        changes.append(Change(label: label, ids: ids, before: before, added: added))
        if changes.count > limit { changes.removeFirst() }
        redoable.removeAll()
    }

    /// Takes the items of `ids` before a change, runs it, and records it when it succeeds.
    /// The change's result names it (`label`); a caller may want nothing more of it.
    @discardableResult
    func recording<T>(
        _ store: GroceryStore, ids: [ItemID], withPhotos: Bool = false,
        label: (T) -> String, _ change: () throws -> T
    ) throws -> T {
        let before = try store.snapshots(of: ids, withPhotos: withPhotos)
        let result = try change()
        record(label(result), ids: ids, before: before)
        return result
    }

    /// Records an item just added: undoing it deletes it.
    func recordAdd(_ row: ItemRow, in store: GroceryStore) {
        guard let after = try? store.snapshots(of: [row.id], withPhotos: true).first else { return }
        record("Added \(row.name)", ids: [row.id], before: [], added: after)
    }

    /// What to ask before undoing the last change, when it is an add of an item another device
    /// changed since (its values differ from those it was added with, and no change of this
    /// device since explains it); `nil` when undo may go ahead.
    public func questionBeforeUndo(in store: GroceryStore) -> String? {
        guard let last = changes.last, let added = last.added,
            let now = try? store.snapshots(of: [aliases.current(added.row.id)], withPhotos: true).first
        else { return nil }
        var then = added.row.item
        let current = now.row.item
        then.modified = current.modified
        then.id = current.id
        guard then != current || added.photo != now.photo else { return nil }
        return
            "\(now.row.name) was changed on another device since you added it (now \(now.row.summary)). Undo deletes it."
    }

    /// Undoes the last change. Returns its words ("Undid Listed Milk"), or why nothing happened.
    public func undoLast(in store: GroceryStore) -> String {
        guard let last = changes.popLast() else { return "Nothing to undo" }
        do {
            redoable.append(try putBack(last, in: store))
            return "Undid \(last.label)"
        } catch {
            changes.append(last)
            return "Cannot undo \(last.label): \(ErrorText.reason(error))"
        }
    }

    /// Redoes the last change undone. Returns its words ("Redid Listed Milk").
    public func redoLast(in store: GroceryStore) -> String {
        guard let next = redoable.popLast() else { return "Nothing to redo" }
        do {
            changes.append(try putBack(next, in: store))
            return "Redid \(next.label)"
        } catch {
            redoable.append(next)
            return "Cannot redo \(next.label): \(ErrorText.reason(error))"
        }
    }

    /// Puts the items of `change` as it keeps them; returns the change that reverses that.
    private func putBack(_ change: Change, in store: GroceryStore) throws -> Change {
        let present = Set(change.before.map(\.row.id))
        let now = try store.snapshots(of: change.ids.map(aliases.current), withPhotos: true)
        var updated = aliases
        try store.restore(change.before, removing: change.ids.filter { !present.contains($0) }, aliases: &updated)
        aliases = updated
        let ids = change.ids.map(aliases.current)
        // Items that did not exist before this (an add redone): the reverse deletes them again,
        // asking when another device changed them meanwhile.
        let added = now.isEmpty ? try store.snapshots(of: ids, withPhotos: true).first : nil
        return Change(label: change.label, ids: ids, before: now, added: added)
    }

    public func removeAll() {
        changes.removeAll()
        redoable.removeAll()
        aliases.removeAll()
    }
}
