import Foundation
import GroceryModel
import Ubiquity

/// The changes made on this device that `u` can undo: a toggle, an edit, a delete, a clear. Each
/// keeps the items as they were before it; undoing puts them back in one save (which syncs like
/// any change). Emptied when the store changes: its items may not be in the next one.
public final class UndoHistory {
    public struct Change: Sendable {
        /// What the change was ("Listed Milk"), for "Undid …".
        public let label: String
        let before: [ItemSnapshot]
    }

    public private(set) var changes: [Change] = []
    /// How many changes are kept.
    public let limit: Int

    public init(limit: Int = 50) { self.limit = limit }

    /// Records the items' state before a change to them.
    func record(_ label: String, before: [ItemSnapshot]) {
        guard !before.isEmpty else { return }
        changes.append(Change(label: label, before: before))
        if changes.count > limit { changes.removeFirst() }
    }

    /// Takes the items of `ids` before a change, runs it, and records it when it succeeds.
    func recording<T>(_ store: GroceryStore, ids: [GlobalID], withPhotos: Bool = false,
                      label: (T) -> String, _ change: () throws -> T) throws -> T {
        let before = try store.snapshots(of: ids, withPhotos: withPhotos)
        let result = try change()
        record(label(result), before: before)
        return result
    }

    /// Undoes the last change. Returns its words ("Undid Listed Milk"), or why nothing happened.
    public func undoLast(in store: GroceryStore) -> String {
        guard let last = changes.popLast() else { return "Nothing to undo" }
        do {
            try store.restore(last.before)
            return "Undid \(last.label)"
        } catch {
            changes.append(last)
            return "Cannot undo \(last.label): \(ErrorText.reason(error))"
        }
    }

    public func removeAll() { changes.removeAll() }
}
