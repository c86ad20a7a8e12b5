import Foundation

/// Grocery Dude's data as a document: what `export` writes, `import` reads, and the default
/// data ships as. Every importer turns its format into this; one applier writes it.
///
/// Items refer to units and locations by name. Absent fields leave a matched object's value
/// alone on import.
public struct GroceryArchive: Codable, Equatable, Sendable {
    public static let formatName = "grocery-dude"
    public static let currentVersion = 1

    public var format = GroceryArchive.formatName
    public var version = GroceryArchive.currentVersion
    public var units: [CatalogRecord] = []
    public var homeLocations: [CatalogRecord] = []
    public var shopLocations: [CatalogRecord] = []
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
                    "written by a newer Grocery Dude (file version \(version), this one reads \(Self.currentVersion))")
        }
        units = try container.decodeIfPresent([CatalogRecord].self, forKey: .units) ?? []
        homeLocations = try container.decodeIfPresent([CatalogRecord].self, forKey: .homeLocations) ?? []
        shopLocations = try container.decodeIfPresent([CatalogRecord].self, forKey: .shopLocations) ?? []
        items = try container.decodeIfPresent([ItemRecord].self, forKey: .items) ?? []
    }
}

/// A unit, home location or shop aisle in an archive.
public struct CatalogRecord: Codable, Equatable, Sendable {
    public var name: String
    public var modified: Date?

    public init(name: String, modified: Date? = nil) {
        self.name = name
        self.modified = modified
    }
}

/// An item in an archive.
public struct ItemRecord: Codable, Equatable, Sendable {
    public var name: String
    public var quantity: Double?
    public var unit: String?
    public var homeLocation: String?
    public var shopLocation: String?
    public var listed: Bool?
    public var collected: Bool?
    public var modified: Date?
    public var note: String?
    /// The photo's bytes (base64 in JSON and CSV).
    public var photo: Data?

    public init(name: String) { self.name = name }
}
