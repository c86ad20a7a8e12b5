import Foundation
import GroceryModel

/// What an import from the cloud folder did, in values of the app's own: how many objects it
/// inserted, updated and deleted, from which devices, and what a screen that reads again only
/// the changed rows needs — the items updated, the other kinds of objects changed, and the
/// store's change tokens around it.
///
/// Made in the background, with the store's change counts just before the import's round and
/// just after it: when no save came between them, a screen that had fetched at the first
/// reads only the changed rows while the store is still at the second.
public struct BackgroundImport: Sendable, Equatable {
    /// How many objects it inserted, updated and deleted.
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    /// The devices whose logs or baselines changed something, sorted.
    public var devices: [String]
    /// Items whose values changed; not added, not deleted.
    public var updatedItems: Set<ItemID>
    /// Every other kind of object changed (by entity name), and "Item" when items were added or
    /// deleted: what changes a list's order or its sections.
    public var otherEntities: Set<String>
    /// The store's change token just before the import's round and just after it, when no save
    /// came between the two readings: then the import is the only change between them.
    /// Both or neither.
    public var tokenBefore: Int64?
    public var tokenAfter: Int64?

    public init(
        inserted: Int = 0, updated: Int = 0, deleted: Int = 0, devices: [String] = [],
        updatedItems: Set<ItemID> = [], otherEntities: Set<String> = [],
        tokenBefore: Int64? = nil, tokenAfter: Int64? = nil
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.devices = devices.sorted()
        self.updatedItems = updatedItems
        self.otherEntities = otherEntities
        self.tokenBefore = tokenBefore
        self.tokenAfter = tokenAfter
    }

    /// How many objects it changed.
    public var count: Int { inserted + updated + deleted }

    /// What a screen or a log says of it: "3 changes from kitchen".
    public var summary: String { Self.summary(count: count, devices: devices) }

    /// "3 changes from kitchen, phone" (devices in the given order), "1 change".
    public static func summary(count: Int, devices: [String]) -> String {
        let from = devices.isEmpty ? "" : " from " + devices.joined(separator: ", ")
        return "\(count) change\(count == 1 ? "" : "s")\(from)"
    }
}
