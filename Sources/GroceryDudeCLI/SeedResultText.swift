import StoreLifecycle

extension SeedResult {
    /// What a merge command prints: that it waits, and why, or what it merged.
    func report(merged source: String, removed: String) -> String {
        if let waiting { return "Merging with the cloud: \(waiting)." }
        return "Merged \(source) into the cloud: \(copied) of \(total) objects copied or completed, "
            + "\(deduplication.mergedCount) duplicates merged; \(removed) is removed."
    }
}
