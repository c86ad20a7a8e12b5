import GroceryModel
import StoreLifecycle

extension SeedResult {
    /// What a merge command prints: that it waits, and why, or what it merged.
    func report(merged source: String, removed: String) -> String {
        if let waiting { return "Merging with the cloud: \(waiting)." }
        let duplicates = deduplication.mergedCount
        return "Merged \(source) into the cloud: \(objectsText); "
            + "\(duplicates == 0 ? "no" : String(duplicates)) duplicate\(duplicates == 1 ? "" : "s") merged; \(removed) is removed."
    }
}
