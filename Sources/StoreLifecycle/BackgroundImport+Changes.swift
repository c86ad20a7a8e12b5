import Foundation
import GroceryModel
import Ubiquity

/// An import's changes as a screen that reads again only what changed needs them.
extension BackgroundImport {
    /// Items whose values changed; not added, not deleted.
    public var updatedItems: Set<ItemID> {
        Set(report.changes.updated.filter { $0.entity == GrocerySchema.Entity.item }.map { ItemID($0.id) })
    }

    /// Every other kind of object changed (by entity name), and "Item" when items were added or
    /// deleted: what changes a list's order or its sections.
    public var otherEntities: Set<String> {
        let changes = report.changes
        return Set(changes.inserted.union(changes.deleted).map(\.entity))
            .union(changes.updated.filter { $0.entity != GrocerySchema.Entity.item }.map(\.entity))
    }

    /// The store's change token just before the import's round and just after it, when no save
    /// came between the two readings: then the import is the only change between them.
    public var tokens: (before: Int64, after: Int64)? {
        guard let before, let after, before.saves == after.saves else { return nil }
        return (before.token, after.token)
    }
}
