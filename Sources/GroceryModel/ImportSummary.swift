import Foundation

/// What an import did, per kind of object.
public struct ImportSummary: Equatable, Sendable, CustomStringConvertible {
    public struct Counts: Equatable, Sendable {
        public var inserted = 0
        public var updated = 0
        public var unchanged = 0
        public var total: Int { inserted + updated + unchanged }
    }

    public var items = Counts()
    public var units = Counts()
    public var homeLocations = Counts()
    public var shopLocations = Counts()

    subscript(kind: CatalogKind) -> Counts {
        get {
            switch kind {
            case .unit: units
            case .home: homeLocations
            case .shop: shopLocations
            }
        }
        set {
            switch kind {
            case .unit: units = newValue
            case .home: homeLocations = newValue
            case .shop: shopLocations = newValue
            }
        }
    }

    public var description: String {
        func line(_ counts: Counts, _ noun: String) -> String {
            "\(counted(counts.total, noun)) (\(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged)"
        }
        return [
            line(items, "item"), line(units, "unit"),
            line(homeLocations, "home location"), line(shopLocations, "shop aisle"),
        ].joined(separator: ", ")
    }
}
