import Ubiquity

/// The identity of a unit, home location or shop aisle: lists of the three kinds share one
/// screen and one set of commands (``CatalogKind``), so an entry's ID says which kind it is.
public enum CatalogEntryID: Hashable, Sendable, CustomStringConvertible {
    case unit(UnitID)
    case home(HomeLocationID)
    case shop(ShopLocationID)

    /// The entry of `kind` the engine knows as `globalID`.
    init(_ kind: CatalogKind, _ globalID: GlobalID) {
        switch kind {
        case .unit: self = .unit(UnitID(globalID))
        case .home: self = .home(HomeLocationID(globalID))
        case .shop: self = .shop(ShopLocationID(globalID))
        }
    }

    /// Which list the entry is in.
    public var kind: CatalogKind {
        switch self {
        case .unit: .unit
        case .home: .home
        case .shop: .shop
        }
    }

    /// The engine's identity of the entry.
    package var globalID: GlobalID {
        switch self {
        case .unit(let id): id.globalID
        case .home(let id): id.globalID
        case .shop(let id): id.globalID
        }
    }

    /// Lowercase UUID text, as stored and printed.
    public var description: String { globalID.description }
}
