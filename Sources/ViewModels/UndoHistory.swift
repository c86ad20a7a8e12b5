import Foundation
import GroceryModel
import TextAndFiles

/// The changes made on this device that `u` can undo and `U` (or Ctrl-R) redo: a toggle, an
/// edit, a delete, a clear. Each keeps the items as they were before it; undoing puts them back
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
    func record(_ label: String, ids: [ItemID], before: [ItemSnapshot]) {
        guard !before.isEmpty else { return }
        changes.append(Change(label: label, ids: ids, before: before))
        if changes.count > limit { changes.removeFirst() }
        redoable.removeAll()
    }

    /// Takes the items of `ids` before a change, runs it, and records it when it succeeds.
    /// The change's result names it (`label`); a caller may want nothing more of it.
    @discardableResult
    func recording<T>(_ store: GroceryStore, ids: [ItemID], withPhotos: Bool = false,
                      label: (T) -> String, _ change: () throws -> T) throws -> T {
        let before = try store.snapshots(of: ids, withPhotos: withPhotos)
        let result = try change()
        record(label(result), ids: ids, before: before)
        return result
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
        return Change(label: change.label, ids: change.ids.map(aliases.current), before: now)
    }

    public func removeAll() {
        changes.removeAll()
        redoable.removeAll()
        aliases.removeAll()
    }
}
