import Foundation
import GRDB
import Ubiquity

/// Grocery Dude's data model, the book's Model 9, as versioned schemas and migrations.
///
/// - Version 1: Item, Unit, LocationAtHome, LocationAtShop, ItemPhoto.
/// - Version 2: adds `Item.note` (lightweight migration: one nullable column).
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
    }

    /// The newest model version this build knows.
    public static var currentVersion: Int { definition.currentVersion }

    /// Every version, with its migration.
    public static let definition = ModelDefinition(versions: [
        ModelVersion(schema: schema(version: 1), migrate: migrateToVersion1),
        ModelVersion(schema: schema(version: 2), migrate: migrateToVersion2),
    ])

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

    // MARK: - Schemas

    static func schema(version: Int) -> Schema {
        var itemAttributes: [AttributeDescription] = [
            AttributeDescription("name", .string, default: .string(defaultItemName), rule: nameRule),
            AttributeDescription("quantity", .double, default: .double(1), rule: quantityRule),
            AttributeDescription("listed", .bool, default: .bool(true), rule: flagRule),
            AttributeDescription("collected", .bool, default: .bool(false), rule: flagRule),
            AttributeDescription("modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule),
        ]
        if version >= 2 { itemAttributes.append(AttributeDescription("note", .string, rule: noteRule)) }

        func named(_ entity: String, table: String, attribute: String) -> EntityDescription {
            EntityDescription(
                name: entity, table: table,
                attributes: [
                    AttributeDescription(attribute, .string, rule: nameRule),
                    AttributeDescription(
                        "modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule),
                ],
                uniqueAttribute: attribute, modificationDateAttribute: "modified")
        }

        return Schema(
            version: version,
            entities: [
                EntityDescription(
                    name: Entity.item, table: "item",
                    attributes: itemAttributes,
                    relationships: [
                        RelationshipDescription("unit", to: Entity.unit),
                        RelationshipDescription("locationAtHome", to: Entity.locationAtHome),
                        RelationshipDescription("locationAtShop", to: Entity.locationAtShop),
                        RelationshipDescription("photo", to: Entity.itemPhoto, deleteRule: .cascade),
                    ],
                    uniqueAttribute: "name", modificationDateAttribute: "modified"),
                named(Entity.unit, table: "unit", attribute: "name"),
                named(Entity.locationAtHome, table: "locationAtHome", attribute: "storedIn"),
                named(Entity.locationAtShop, table: "locationAtShop", attribute: "aisle"),
                EntityDescription(
                    name: Entity.itemPhoto, table: "itemPhoto",
                    attributes: [
                        AttributeDescription("data", .data, rule: ValueRule(maximumBytes: maximumPhotoBytes)),
                        AttributeDescription(
                            "modified", .date, default: .date(Date(timeIntervalSince1970: 0)), rule: dateRule),
                    ],
                    modificationDateAttribute: "modified"),
            ])
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
}
