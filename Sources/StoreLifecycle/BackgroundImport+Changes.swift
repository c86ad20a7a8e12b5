import Foundation
import GroceryModel
import Ubiquity

/// An import's changes as a screen that reads again only what changed needs them: mapped
/// from the engine's report here, so that no engine value leaves `StoreLifecycle`.
extension BackgroundImport {
    /// The engine's report of an import, and the store's change counts read around its round.
    init(_ report: ImportReport, before: GroceryStore.ChangeCounts?, after: GroceryStore.ChangeCounts?) {
        let changes = report.changes
        // Items whose values changed; not added, not deleted.
        let updatedItems = Set(changes.updated.filter { $0.entity == GrocerySchema.Entity.item }.map { ItemID($0.id) })
        // Every other kind of object changed, and "Item" when items were added or deleted.
        let otherEntities = Set(changes.inserted.union(changes.deleted).map(\.entity))
            .union(changes.updated.filter { $0.entity != GrocerySchema.Entity.item }.map(\.entity))
        // The import is the only change between the two readings when no save came between them.
        var tokens: (before: Int64, after: Int64)?
        if let before, let after, before.saves == after.saves { tokens = (before.token, after.token) }
        self.init(
            inserted: changes.inserted.count, updated: changes.updated.count, deleted: changes.deleted.count,
            devices: Array(report.devices), updatedItems: updatedItems, otherEntities: otherEntities,
            tokenBefore: tokens?.before, tokenAfter: tokens?.after)
    }
}
