import Foundation
import Ubiquity

/// How much the store changed, for screens that read again only what changed.
extension GroceryStore {
    /// The store's change token in two parts, read together: saves (from any process) and
    /// imported batches. Around an import, `saves` unchanged says the import made every change
    /// between two readings; around a save, `saves` one more and `imports` unchanged say the
    /// save did.
    public struct ChangeCounts: Equatable, Sendable {
        public var saves: Int64
        public var imports: Int64
        /// What ``GroceryStore/changeToken()`` answers.
        public var token: Int64 { saves + imports }

        public init(saves: Int64, imports: Int64) {
            self.saves = saves
            self.imports = imports
        }
    }

    /// A number that grows with every save and every imported batch.
    public func changeToken() throws -> Int64 { try objects.changeToken() }

    /// The change counts now.
    public func changeCounts() throws -> ChangeCounts {
        let counts = try objects.changeCounts()
        return ChangeCounts(saves: counts.saves, imports: counts.imports)
    }
}
