import Foundation
import Ubiquity

/// How much the store changed, for screens that read again only what changed.
extension GroceryStore {
    /// The store's change token in two parts: saves and imported batches.
    public typealias ChangeCounts = Ubiquity.ChangeCounts

    /// The change counts now.
    public func changeCounts() throws -> ChangeCounts { try objects.changeCounts() }
}
