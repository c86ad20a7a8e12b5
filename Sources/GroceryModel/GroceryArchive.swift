import Foundation

/// Grocery Dude's data as a document: what `export` writes, `import` reads, and the default
/// data ships as. Every importer turns its format into this; one applier writes it.
///
/// Items refer to units, locations, shops and aisles by name. Absent fields leave a matched
/// object's value alone on import.
///
/// Version 1 has units, home locations, the default shop's aisles (`shopLocations`) and items.
/// Version 2 (what a store of model version 3 exports) adds `shops`, a `position` on moved
/// aisles, and each item's `aisles` in shops other than the default (docs/decisions/0163).
public struct GroceryArchive: Codable, Equatable, Sendable {
    public static let formatName = "grocery-dude"
    /// The newest version this build reads.
    public static let currentVersion = 2
    /// The version that has shops.
    public static let shopsVersion = 2

    public var format = GroceryArchive.formatName
    public var version = 1
    public var units: [CatalogRecord] = []
    public var homeLocations: [CatalogRecord] = []
    /// The default shop's aisles (the book's), each with its `position` once moved.
    public var shopLocations: [CatalogRecord] = []
    /// Every shop, the default one first (`nil` in version 1). The default shop's aisles are
    /// ``shopLocations``; another shop's are its ``ShopRecord/aisles``.
    public var shops: [ShopRecord]?
    public var items: [ItemRecord] = []

    public init() {}

    public func records(_ kind: CatalogKind) -> [CatalogRecord] {
        switch kind {
        case .unit: units
        case .home: homeLocations
        case .shop: shopLocations
        }
    }

    public mutating func append(_ record: CatalogRecord, to kind: CatalogKind) {
        switch kind {
        case .unit: units.append(record)
        case .home: homeLocations.append(record)
        case .shop: shopLocations.append(record)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decodeIfPresent(String.self, forKey: .format)
        guard format == Self.formatName else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription: "not a Grocery Dude file (\"format\" is not \"\(Self.formatName)\")")
        }
        version = try container.decode(Int.self, forKey: .version)
        guard version <= Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription:
                    "written by a newer Grocery Dude (file version \(version), this one reads up to \(Self.currentVersion)): update Grocery Dude to import it"
            )
        }
        units = try container.decodeIfPresent([CatalogRecord].self, forKey: .units) ?? []
        homeLocations = try container.decodeIfPresent([CatalogRecord].self, forKey: .homeLocations) ?? []
        shopLocations = try container.decodeIfPresent([CatalogRecord].self, forKey: .shopLocations) ?? []
        shops = try container.decodeIfPresent([ShopRecord].self, forKey: .shops)
        items = try container.decodeIfPresent([ItemRecord].self, forKey: .items) ?? []
    }
}

/// A unit, home location or aisle in an archive.
public struct CatalogRecord: Codable, Equatable, Sendable {
    public var name: String
    public var modified: Date?
    /// An aisle's place in its shop's walking order, once the user moved it (``WalkingOrder``);
    /// absent for aisles in natural order, and for units and home locations.
    public var position: Double?

    public init(name: String, modified: Date? = nil, position: Double? = nil) {
        self.name = name
        self.modified = modified
        self.position = position
    }
}

/// A shop in an archive (version 2).
public struct ShopRecord: Codable, Equatable, Sendable {
    public var name: String
    /// Whether it is the list's default shop, which holds the book's aisles: an import gives
    /// the store's default shop this one's name.
    public var isDefault: Bool
    public var modified: Date?
    /// Its aisles; for the default shop they are the archive's `shopLocations` and an export
    /// leaves this out (an import takes them here too).
    public var aisles: [CatalogRecord]?

    public init(name: String, isDefault: Bool = false, modified: Date? = nil, aisles: [CatalogRecord]? = nil) {
        self.name = name
        self.isDefault = isDefault
        self.modified = modified
        self.aisles = aisles
    }

    enum CodingKeys: String, CodingKey {
        case name
        case isDefault = "default"
        case modified, aisles
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .isDefault) ?? false
        modified = try container.decodeIfPresent(Date.self, forKey: .modified)
        aisles = try container.decodeIfPresent([CatalogRecord].self, forKey: .aisles)
    }
}

/// Where an item is found in a shop, by names (version 2).
public struct ItemAisleRecord: Codable, Equatable, Sendable {
    public var shop: String
    public var aisle: String

    public init(shop: String, aisle: String) {
        self.shop = shop
        self.aisle = aisle
    }
}

/// An item in an archive.
public struct ItemRecord: Codable, Equatable, Sendable {
    public var name: String
    public var quantity: Double?
    public var unit: String?
    public var homeLocation: String?
    /// Its aisle in the default shop.
    public var shopLocation: String?
    public var listed: Bool?
    public var collected: Bool?
    public var modified: Date?
    public var note: String?
    /// The photo's bytes (base64 in JSON and CSV).
    public var photo: Data?
    /// Its aisles in shops other than the default (version 2). An import also takes one in the
    /// default shop here, as the item's ``shopLocation``.
    public var aisles: [ItemAisleRecord]?

    public init(name: String) { self.name = name }
}
