import Foundation
import GroceryModel
import StoreLifecycle

/// What changed in the store, when it is known: the objects an import changed, or the item a
/// screen just saved. A list reads again only those rows when its order cannot have moved
/// (``ItemListViewModel/apply(_:)``), and fetches everything otherwise.
public struct StoreChanges: Equatable, Sendable {
    /// Items whose values changed; not added, not deleted.
    public var updatedItems: Set<ItemID> = []
    /// Every other kind of object changed (by entity name), and "Item" when items were added
    /// or deleted: what changes a list's order or its sections.
    public var otherEntities: Set<String> = []
    /// The store's change token just before the change and just after it, when known: the
    /// change is the only one between them. Without them a screen fetches everything.
    public var tokenBefore: Int64?
    public var tokenAfter: Int64?

    public init(
        updatedItems: Set<ItemID> = [], otherEntities: Set<String> = [],
        tokenBefore: Int64? = nil, tokenAfter: Int64? = nil
    ) {
        self.updatedItems = updatedItems
        self.otherEntities = otherEntities
        self.tokenBefore = tokenBefore
        self.tokenAfter = tokenAfter
    }

    /// An import's changes, split by what they can move; the tokens are kept when no save came
    /// between the two readings of the counts around it.
    public init(_ done: BackgroundImport) {
        updatedItems = done.updatedItems
        otherEntities = done.otherEntities
        tokenBefore = done.tokenBefore
        tokenAfter = done.tokenAfter
    }

    /// One item a screen just saved, in one save: the tokens are kept when the counts moved
    /// by that save alone (no other save, no import meanwhile).
    init(ownSave item: ItemID, before: GroceryStore.ChangeCounts?, after: GroceryStore.ChangeCounts?) {
        updatedItems = [item]
        if let before, let after, after.saves == before.saves + 1, after.imports == before.imports {
            tokenBefore = before.token
            tokenAfter = after.token
        }
    }

    public var count: Int { updatedItems.count + otherEntities.count }

    /// Whether these changes may have changed `item`: named among the updated, or items added
    /// or deleted (an import read whole names no item).
    public func mayHaveChanged(_ item: ItemID) -> Bool {
        updatedItems.contains(item) || otherEntities.contains(GrocerySchema.Entity.item)
    }

    /// Whether these changes touch an entity's objects (items included).
    public func touches(_ entity: String) -> Bool {
        otherEntities.contains(entity) || (entity == GrocerySchema.Entity.item && !updatedItems.isEmpty)
    }
}
