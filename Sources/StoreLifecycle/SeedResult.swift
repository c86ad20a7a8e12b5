import GroceryModel
import Ubiquity

/// How the seeded store's objects fared in the cloud store: copied, updated, already there, or
/// deleted there (and left deleted).
public struct SeedCounts: Equatable, Sendable {
    /// Copied: the cloud store had no such object.
    public var inserted = 0
    /// Matched, and took values: later ones, or ones the match lacked.
    public var updated = 0
    /// Matched, with nothing to take: already in the cloud.
    public var unchanged = 0
    /// Deleted in the cloud store: left deleted.
    public var deleted = 0

    public init() {}

    init(_ counts: StoreSeeder.Counts) {
        (inserted, updated, unchanged, deleted) = (counts.inserted, counts.updated, counts.unchanged, counts.deleted)
    }

    public var total: Int { inserted + updated + unchanged + deleted }
}

/// What a seed ("Merge with Cloud?") did.
public struct SeedResult: Sendable {
    /// What became of the seeded store's objects in the cloud store (none when the copy was
    /// made by an earlier run, which a crash interrupted before it removed the store).
    public var objects = SeedCounts()
    /// Whether the seeded store was removed (the seed is over).
    public var finished = false
    /// Why it is not over yet ("the cloud store is not set up: offline", "waiting to export").
    public var waiting: String?
    /// The duplicates merged in the cloud store after the copy.
    public var deduplication = MergedDuplicates()

    /// What became of the objects, in words: "all 180 objects were already in the cloud",
    /// "180 objects: 1 copied, 1 updated, 178 already in the cloud".
    public var objectsText: String {
        let total = objects.total
        guard total > 0 else { return "nothing left to copy" }
        let noun = total == 1 ? "object" : "objects"
        if objects.unchanged == total {
            return total == 1 ? "the object was already in the cloud" : "all \(total) objects were already in the cloud"
        }
        let parts = [
            (objects.inserted, "copied"), (objects.updated, "updated"), (objects.unchanged, "already in the cloud"),
            (objects.deleted, "deleted in the cloud, left deleted"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "\(total) \(noun): " + parts.joined(separator: ", ")
    }
}
