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
    /// Shops (the default one included) and the aisles of shops other than the default.
    public var shops = Counts()
    public var shopAisles = Counts()

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
        func line(_ counts: Counts, _ noun: String, plural: String? = nil) -> String {
            "\(counted(counts.total, noun, plural: plural)) (\(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged)"
        }
        var lines = [
            line(items, "item"), line(units, "unit"),
            line(homeLocations, "home location"), line(shopLocations, "shop aisle"),
        ]
        // Shops only when the file had some: a file without says what it said before shops.
        if shops.total > 0 { lines.append(line(shops, "shop")) }
        if shopAisles.total > 0 {
            lines.append(line(shopAisles, "aisle of another shop", plural: "aisles of other shops"))
        }
        return lines.joined(separator: ", ")
    }
}
