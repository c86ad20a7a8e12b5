import Foundation

/// The three lists of names that items point at: units, home locations and shop aisles.
///
/// They share one shape (a name and a modification date) and one set of operations, so the
/// store handles them through this description instead of three copies of the same code.
public enum CatalogKind: String, CaseIterable, Sendable, Codable {
    case unit
    case home
    case shop

    /// The entity in the model.
    public var entity: String {
        switch self {
        case .unit: GrocerySchema.Entity.unit
        case .home: GrocerySchema.Entity.locationAtHome
        case .shop: GrocerySchema.Entity.locationAtShop
        }
    }

    public var table: String {
        switch self {
        case .unit: "unit"
        case .home: "locationAtHome"
        case .shop: "locationAtShop"
        }
    }

    /// The attribute holding the entry's name (the book's names).
    public var nameAttribute: String {
        switch self {
        case .unit: "name"
        case .home: "storedIn"
        case .shop: "aisle"
        }
    }

    /// The item relationship that points at entries of this kind.
    public var itemRelationship: String {
        switch self {
        case .unit: "unit"
        case .home: "locationAtHome"
        case .shop: "locationAtShop"
        }
    }

    /// What users call one entry.
    public var noun: String {
        switch self {
        case .unit: "unit"
        case .home: "home location"
        case .shop: "shop aisle"
        }
    }
}

/// One unit, home location or shop aisle, with how many items use it.
public struct CatalogEntry: Hashable, Sendable, Identifiable {
    public let kind: CatalogKind
    public let id: CatalogEntryID
    public let name: String
    public let modified: Date
    public let itemCount: Int
}
