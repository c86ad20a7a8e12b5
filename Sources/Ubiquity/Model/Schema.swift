import Foundation
import GRDB

/// The type of a property's values.
public enum PropertyType: String, Sendable, Codable {
    case bool, integer, double, string, date, data
    /// A to-one relationship: the value is the target object's global ID.
    case reference
}

/// What deleting an object does to the target of one of its to-one relationships.
public enum DeleteRule: String, Sendable {
    /// The target stays; only the link goes.
    case nullify
    /// The target is deleted too (an item's photo).
    case cascade
}

/// An attribute: a named, typed value with a default, and the rule its values obey.
public struct AttributeDescription: Sendable, Equatable {
    public let name: String
    public let type: PropertyType
    public let defaultValue: PropertyValue
    /// Checked wherever a value enters: saves, imported logs and baselines.
    public let rule: ValueRule

    public init(
        _ name: String, _ type: PropertyType, default defaultValue: PropertyValue = .null, rule: ValueRule = .any
    ) {
        precondition(type != .reference, "a reference is declared as a relationship")
        precondition(
            rule.violation(of: defaultValue) == nil || defaultValue == .null,
            "the default of \(name) breaks its own rule")
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.rule = rule
    }
}

/// A to-one relationship, stored as a column holding the target's global ID.
///
/// `deleteRule` says what happens to the target when the object holding the relationship is
/// deleted. Objects that point at a deleted object lose the link (nullify), unless they belong
/// to it (`belongsToTarget`): a link object, such as an item's aisle in one shop, is deleted
/// with its item or its shop — locally, when a peer's delete arrives, and when it arrives
/// itself pointing at an object deleted meanwhile. A relationship of the unique key
/// (``EntityDescription/uniqueKey``) usually belongs to its target: an object whose key lost
/// a part would otherwise stay with half a key.
public struct RelationshipDescription: Sendable, Equatable {
    public let name: String
    public let destination: String
    public let deleteRule: DeleteRule
    public let belongsToTarget: Bool

    public init(
        _ name: String, to destination: String, deleteRule: DeleteRule = .nullify, belongsToTarget: Bool = false
    ) {
        self.name = name
        self.destination = destination
        self.deleteRule = deleteRule
        self.belongsToTarget = belongsToTarget
    }
}

/// One entity: its table, attributes, relationships, and its unique key: the properties whose
/// values together identify an object (matched by importers, seeding and deduplication).
///
/// A key is one text attribute (an item's name), or a text attribute within the objects it
/// points at (an aisle's name within its shop), or references alone (an item's aisle in one
/// shop: one per item and shop). Texts compare by ``UniqueKey``, references by global ID; an
/// object with a part of its key missing (null, or an empty text) has no key and is never a
/// duplicate.
///
/// The table has a `id TEXT PRIMARY KEY` column and one column per property, named as the
/// property.
public struct EntityDescription: Sendable, Equatable {
    /// Everything the entity holds, behind one reference: a copy of the entity is one retain.
    let fields: EntityFields

    public init(
        name: String,
        table: String,
        attributes: [AttributeDescription],
        relationships: [RelationshipDescription] = [],
        uniqueAttribute: String? = nil,
        uniqueWithin: [String] = [],
        modificationDateAttribute: String? = nil
    ) {
        fields = EntityFields(
            name: name, table: table, attributes: attributes, relationships: relationships,
            uniqueAttribute: uniqueAttribute, uniqueWithin: uniqueWithin,
            modificationDateAttribute: modificationDateAttribute)
    }

    public var name: String { fields.name }
    public var table: String { fields.table }
    public var attributes: [AttributeDescription] { fields.attributes }
    public var relationships: [RelationshipDescription] { fields.relationships }
    /// The key's text attribute, if it has one: how people tell the objects apart ("Milk"),
    /// and the spelling deduplication chooses among copies.
    public var uniqueAttribute: String? { fields.uniqueAttribute }
    /// The properties of the unique key, in the order of its index; empty: no key.
    public var uniqueKey: [String] { fields.uniqueKey }
    /// The relationships whose target the object belongs to (deleted with it).
    public var belongingRelationships: Set<String> { fields.belongingRelationships }
    /// A date attribute that every save touching the object sets to now (`modified`).
    public var modificationDateAttribute: String? { fields.modificationDateAttribute }
    /// Every property name, attributes first, in declaration order.
    public var propertyNames: [String] { fields.propertyNames }
    /// The statement that inserts a row with every property and its property clocks
    /// (``RowWriter``): made once, not once a save.
    var insertSQL: String { fields.insertSQL }
    /// The statements that read and write an object's property clocks (``PropertyClocks``).
    var clocksSQL: String { fields.clocksSQL }
    var setClocksSQL: String { fields.setClocksSQL }
    /// By place in ``propertyNames``: each column's type, and what an insert that gives no
    /// value writes (the attribute's default; null for a relationship).
    var columnTypes: [PropertyType] { fields.columnTypes }
    var columnDefaults: [DatabaseValue] { fields.columnDefaults }
    /// By place in ``propertyNames``: the rule of each column's values (``rule(of:)``).
    var columnRules: [ValueRule] { fields.columnRules }
    /// What an insert records when it is given no values: each attribute whose default is not
    /// null, with its default (a null it is created with is not recorded as a write).
    var recordedDefaults: [String: PropertyValue] { fields.recordedDefaults }
    /// The place of ``modificationDateAttribute`` in ``propertyNames``.
    var modificationDateColumn: Int? { fields.modificationDateColumn }

    /// The rule of a property's values (relationships: any target of the right entity, or null).
    public func rule(of property: String) -> ValueRule {
        fields.attributes.first { $0.name == property }?.rule ?? .any
    }

    /// The value a property takes when an insert gives none (relationships: null).
    public func defaultValue(of property: String) -> PropertyValue {
        fields.attributes.first { $0.name == property }?.defaultValue ?? .null
    }

    /// The place of a property in ``propertyNames``, or `nil` when the entity has no such property.
    func column(of property: String) -> Int? {
        fields.propertyColumns[property]
    }

    /// The type of a property, or `nil` when the entity has no such property.
    public func type(of property: String) -> PropertyType? {
        fields.propertyTypes[property]
    }

    /// Two entities are equal when they are declared alike: the rest is made from the declaration.
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.fields === rhs.fields
            || (lhs.name == rhs.name && lhs.table == rhs.table && lhs.attributes == rhs.attributes
                && lhs.relationships == rhs.relationships && lhs.uniqueKey == rhs.uniqueKey
                && lhs.uniqueAttribute == rhs.uniqueAttribute
                && lhs.modificationDateAttribute == rhs.modificationDateAttribute)
    }
}

/// A model version: the entities a store of that version holds.
public struct Schema: Sendable, Equatable {
    public let version: Int
    public let entities: [EntityDescription]

    public init(version: Int, entities: [EntityDescription]) {
        self.version = version
        self.entities = entities
        for entity in entities {
            // Property clocks are stored as text that uses these as separators (``PropertyClocks``).
            for name in entity.propertyNames {
                precondition(
                    !name.contains(where: { "=:,;".contains($0) }),
                    "\(entity.name).\(name): a property name holds no = : , or ;")
                precondition(
                    name != EngineTables.clockColumn && name != "id",
                    "\(entity.name).\(name): a column the engine keeps")
            }
            // One column per name: a table cannot have two (and ``EntityDescription/column(of:)`` finds one).
            precondition(
                Set(entity.propertyNames).count == entity.propertyNames.count,
                "\(entity.name): two properties of one name")
            for relationship in entity.relationships {
                precondition(
                    entities.contains { $0.name == relationship.destination },
                    "\(entity.name).\(relationship.name) points at unknown entity \(relationship.destination)")
            }
        }
    }

    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    /// Every relationship, of any entity, that points at `entity`.
    func relationships(pointingAt entity: String) -> [(
        source: EntityDescription, relationship: RelationshipDescription
    )] {
        entities.flatMap { source in
            source.relationships.filter { $0.destination == entity }.map { (source, $0) }
        }
    }
}
