import Foundation
import Ubiquity

/// Duplicates merged: items, units and locations whose names are equal ignoring case and spaces
/// become one of each, the same one on every device.
extension GroceryStore {
    /// Merges the duplicates; answers how many copies were merged away (cheap when nothing
    /// changed since the last run).
    public func mergeDuplicates() throws -> Int {
        try Deduplicator(store: objects).run().mergedCount
    }
}
