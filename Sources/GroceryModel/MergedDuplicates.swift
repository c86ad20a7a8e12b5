import Foundation
import Ubiquity

/// What one deduplication merged, in the model's own values: for each group of copies, the kind
/// of object, the name it keeps, the survivor's ID and the IDs merged into it (as their text:
/// the kind varies from group to group), and the properties the survivor took from them.
public struct MergedDuplicates: Equatable, Sendable {
    public struct Group: Equatable, Sendable {
        /// The kind of object: "Item", "Unit", "LocationAtHome", "LocationAtShop".
        public var entity: String
        /// The name the survivor keeps, as it spells it.
        public var name: String
        /// The copy that holds the object from now on (the smallest ID, on every device).
        public var survivor: String
        /// The copies merged into it.
        public var merged: [String]
        /// The properties the survivor took from them.
        public var carried: [String]
    }

    public var groups: [Group] = []

    public init() {}

    /// How many copies were merged away.
    public var mergedCount: Int { groups.reduce(0) { $0 + $1.merged.count } }

    init(_ report: DeduplicationReport) {
        groups = report.merges.map { merge in
            Group(
                entity: merge.entity, name: merge.value, survivor: merge.winner.description,
                merged: merge.losers.map(\.description), carried: merge.carried)
        }
    }
}
