import Foundation
import Ubiquity

/// How much the store changed, for screens that read again only what changed.
extension GroceryStore {
    /// The store's change token in two parts: saves and imported batches.
    public typealias ChangeCounts = Ubiquity.ChangeCounts

    /// A number that grows with every save and every imported batch.
    public func changeToken() throws -> Int64 { try objects.changeToken() }

    /// The change counts now.
    public func changeCounts() throws -> ChangeCounts { try objects.changeCounts() }
}
