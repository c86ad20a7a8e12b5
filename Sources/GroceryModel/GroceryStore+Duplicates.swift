import Foundation
import Ubiquity

/// Duplicates merged: items, units and locations whose names are equal ignoring case and spaces
/// become one of each, the same one on every device.
extension GroceryStore {
    /// Merges the duplicates (cheap when nothing changed since the last run): per name, the
    /// survivor, the copies merged into it, and the properties it took from them.
    @discardableResult
    public func mergeDuplicates() throws -> MergedDuplicates {
        MergedDuplicates(try Deduplicator(store: objects).run())
    }
}
