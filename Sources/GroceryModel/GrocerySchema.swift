import Foundation
import GRDB
import Ubiquity

/// Grocery Dude's data model, the book's Model 9, as versioned schemas and migrations.
///
/// - Version 1: Item, Unit, LocationAtHome, LocationAtShop, ItemPhoto.
/// - Version 2: adds `Item.note` (lightweight migration: one nullable column).
/// - Version 3: shops. `Shop` (unique by name; the default shop, "My shop", is made by the
///   migration under ``defaultShopID``); `ShopAisle`, another shop's aisle (unique by name within
///   its shop); `ItemAisle`, an item's aisle in another shop (one per item and shop); and
///   `position` on both kinds of aisle, for the ones the user moved. The book's aisles
///   (`LocationAtShop`) and an item's `locationAtShop` stay what they were: the default shop's.
///
/// Run as an older version with `--model-version 1` (or `GROCERY_DUDE_MODEL_VERSION=1`).
public enum GrocerySchema {
    /// The entity names, as they appear in transaction records.
    public enum Entity {
        public static let item = "Item"
        public static let unit = "Unit"
        public static let locationAtHome = "LocationAtHome"
        public static let locationAtShop = "LocationAtShop"
        public static let itemPhoto = "ItemPhoto"
        public static let shop = "Shop"
        public static let shopAisle = "ShopAisle"
        public static let itemAisle = "ItemAisle"
    }

    /// The default shop's ID: the same on every device, and the smallest ID there is, so that
    /// a shop of the same name made elsewhere merges into it and never the other way round.
    public static let defaultShopID = GlobalID("00000000-0000-8000-8000-000000000000")!
    /// The default shop's name until the user renames it.
    public static let defaultShopName = "My shop"

    /// The newest model version this build knows. A number of its own, not read from
    /// ``definition``: what needs only the number (the options' checks and completions, which
    /// every command and `--help` builds) then does not build every version's schema (a twentieth
    /// of `--help`'s time). ``definition`` stops the program if the two ever differ.
    public static let currentVersion = 3

    /// Every version, with its migration.
    public static let definition: ModelDefinition = {
        let definition = ModelDefinition(versions: [
            ModelVersion(schema: schema(version: 1), migrate: migrateToVersion1),
            ModelVersion(schema: schema(version: 2), migrate: migrateToVersion2),
            ModelVersion(schema: schema(version: 3), migrate: migrateToVersion3),
        ])
        precondition(
            definition.currentVersion == currentVersion, "GrocerySchema.currentVersion is not the newest version")
        return definition
    }()

    /// The default item name, as in the book.
    public static let defaultItemName = "New Item"

    // MARK: - Rules

    /// The longest name (or note) accepted, in characters.
    public static let maximumNameLength = 200
    /// The largest quantity accepted.
    public static let maximumQuantity = 100_000.0
    /// The largest photo accepted, in bytes.
    public static let maximumPhotoBytes = 20 * 1024 * 1024

    /// Names of items, units and locations: something visible, no control characters, at most
    /// ``maximumNameLength`` characters.
    public static let nameRule = ValueRule.name(maximumLength: maximumNameLength)
    /// Quantities: from 0 to ``maximumQuantity``.
    public static let quantityRule = ValueRule(optional: false, range: 0...maximumQuantity)
    /// Notes: optional, may be empty, otherwise as a name.
    public static let noteRule = ValueRule(optional: true, maximumLength: maximumNameLength)
    /// Modification dates: required (any date from 1970 to 9999, as every date).
    public static let dateRule = ValueRule(optional: false)
    /// Flags: required.
    public static let flagRule = ValueRule(optional: false)
    /// An aisle's place in its shop's walking order, once the user moved it: any finite number.
    public static let positionRule = ValueRule(optional: true, range: -1e15...1e15)

    // MARK: - Schemas

    static func schema(version: Int) -> Schema {
        let shops: [EntityDescription] = version < 3 ? [] : [shopEntity, shopAisleEntity, itemAisleEntity]
        return Schema(
            version: version,
            entities: [
                version < 2 ? firstItemEntity : itemEntity, unitEntity, homeLocationEntity,
                version < 3 ? firstShopLocationEntity : shopLocationEntity, itemPhotoEntity,
            ] + shops)
    }

    // Each entity is made once and shared by the versions that have it alike: making one prepares
    // its statements and lookup tables, and the three versions' 18 were a twentieth of the
    // instructions of `item list` (which builds every version at every open).

    /// An item before version 2: no note.
    private static let firstItemEntity = item(attributes: itemAttributes)
    private static let itemEntity = item(
        attributes: itemAttributes + [AttributeDescription("note", .string, rule: noteRule)])
    private static let unitEntity = named(Entity.unit, table: "unit", attribute: "name")
    private static let homeLocationEntity = named(Entity.locationAtHome, table: "locationAtHome", attribute: "storedIn")
    /// A shop aisle before version 3: not moved by the user.
    private static let firstShopLocationEntity = named(
        Entity.locationAtShop, table: "locationAtShop", attribute: "aisle")
    private static let shopLocationEntity = named(
        Entity.locationAtShop, table: "locationAtShop", attribute: "aisle", moved: true)
    private static let itemPhotoEntity = EntityDescription(
        name: Entity.itemPhoto, table: "itemPhoto",
        attributes: [
            AttributeDescription("data", .data, rule: ValueRule(maximumBytes: maximumPhotoBytes)),
            AttributeDescription("modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule),
        ],
        modificationDateAttribute: "modified")
    private static let shopEntity = named(Entity.shop, table: "shop", attribute: "name")
    private static let shopAisleEntity = EntityDescription(
        name: Entity.shopAisle, table: "shopAisle",
        attributes: [
            AttributeDescription("aisle", .string, rule: nameRule), modified,
            AttributeDescription("position", .double, rule: positionRule),
        ],
        relationships: [RelationshipDescription("shop", to: Entity.shop, belongsToTarget: true)],
        uniqueAttribute: "aisle", uniqueWithin: ["shop"], modificationDateAttribute: "modified")
    private static let itemAisleEntity = EntityDescription(
        name: Entity.itemAisle, table: "itemAisle", attributes: [modified],
        relationships: [
            RelationshipDescription("item", to: Entity.item, belongsToTarget: true),
            RelationshipDescription("shop", to: Entity.shop, belongsToTarget: true),
            RelationshipDescription("aisle", to: Entity.shopAisle, belongsToTarget: true),
        ],
        uniqueWithin: ["item", "shop"], modificationDateAttribute: "modified")

    private static var itemAttributes: [AttributeDescription] {
        [
            AttributeDescription("name", .string, default: .string(defaultItemName), rule: nameRule),
            AttributeDescription("quantity", .double, default: .double(1), rule: quantityRule),
            AttributeDescription("listed", .bool, default: .bool(true), rule: flagRule),
            AttributeDescription("collected", .bool, default: .bool(false), rule: flagRule),
            AttributeDescription("modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule),
        ]
    }

    private static func item(attributes: [AttributeDescription]) -> EntityDescription {
        EntityDescription(
            name: Entity.item, table: "item",
            attributes: attributes,
            relationships: [
                RelationshipDescription("unit", to: Entity.unit),
                RelationshipDescription("locationAtHome", to: Entity.locationAtHome),
                RelationshipDescription("locationAtShop", to: Entity.locationAtShop),
                RelationshipDescription("photo", to: Entity.itemPhoto, deleteRule: .cascade),
            ],
            uniqueAttribute: "name", modificationDateAttribute: "modified")
    }

    private static var modified: AttributeDescription {
        AttributeDescription("modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule)
    }

    /// A list of names items point at: the name, its modification date, and (`moved`) the place
    /// the user moved it to.
    private static func named(_ entity: String, table: String, attribute: String, moved: Bool = false)
        -> EntityDescription
    {
        EntityDescription(
            name: entity, table: table,
            attributes: [AttributeDescription(attribute, .string, rule: nameRule), modified]
                + (moved ? [AttributeDescription("position", .double, rule: positionRule)] : []),
            uniqueAttribute: attribute, modificationDateAttribute: "modified")
    }

    // MARK: - Migrations (only ever appended)

    @Sendable static func migrateToVersion1(_ db: Database) throws {
        for (table, attribute) in [("unit", "name"), ("locationAtHome", "storedIn"), ("locationAtShop", "aisle")] {
            try db.create(table: table) { t in
                t.primaryKey("id", .text)
                t.column(attribute, .text).indexed()
                t.column("modified", .double).notNull()
            }
        }
        try db.create(table: "itemPhoto") { t in
            t.primaryKey("id", .text)
            t.column("data", .blob)
            t.column("modified", .double).notNull()
        }
        try db.create(table: "item") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).notNull().defaults(to: defaultItemName).indexed()
            t.column("quantity", .double).notNull().defaults(to: 1)
            t.column("listed", .boolean).notNull().defaults(to: true).indexed()
            t.column("collected", .boolean).notNull().defaults(to: false)
            t.column("modified", .double).notNull()
            // To-one relationships hold the target's global ID. No foreign key: a target that
            // has not arrived from another peer yet keeps the reference pending.
            t.column("unit", .text).indexed()
            t.column("locationAtHome", .text).indexed()
            t.column("locationAtShop", .text).indexed()
            t.column("photo", .text).indexed()
        }
    }

    @Sendable static func migrateToVersion2(_ db: Database) throws {
        try db.alter(table: "item") { t in
            t.add(column: "note", .text)
        }
    }

    /// Shops: the book's aisles become the default shop's, nothing renamed; the default shop is
    /// made here, alike on every device (no clock reading: any rename wins over it).
    @Sendable static func migrateToVersion3(_ db: Database) throws {
        try db.alter(table: "locationAtShop") { t in t.add(column: "position", .double) }
        try db.create(table: "shop") { t in
            t.primaryKey("id", .text)
            t.column("name", .text).indexed()
            t.column("modified", .double).notNull()
        }
        try db.create(table: "shopAisle") { t in
            t.primaryKey("id", .text)
            t.column("aisle", .text)
            t.column("modified", .double).notNull()
            t.column("position", .double)
            t.column("shop", .text).indexed()
        }
        try db.create(table: "itemAisle") { t in
            t.primaryKey("id", .text)
            t.column("modified", .double).notNull()
            t.column("item", .text).indexed()
            t.column("shop", .text).indexed()
            t.column("aisle", .text).indexed()
        }
        try db.execute(
            sql: "INSERT INTO shop (id, name, modified) VALUES (?, ?, 0)",
            arguments: [defaultShopID.description, defaultShopName])
    }
}
