import Foundation
import GRDB

/// What an ``EntityDescription`` holds, made once when the entity is declared and shared by every
/// copy of it: an entity is looked up by name at every object a save, an import or a check
/// reads (``Schema/entity(named:)``), and a copy of twenty arrays, dictionaries and texts
/// retained and released each of them (about 7M instructions of an import of 50,000 changes).
final class EntityFields: Sendable {
    // The declaration; what each field means is said by the entity's property of the same name.
    let name: String
    let table: String
    let attributes: [AttributeDescription]
    let relationships: [RelationshipDescription]
    let uniqueAttribute: String?
    let uniqueKey: [String]
    let belongingRelationships: Set<String>
    let modificationDateAttribute: String?

    /// Made by `EntityDescription`'s initializer alone, with its parameters (their defaults are
    /// its own).
    init(
        name: String, table: String, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniqueAttribute: String?, uniqueWithin: [String], modificationDateAttribute: String?
    ) {
        self.name = name
        self.table = table
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueAttribute = uniqueAttribute
        uniqueKey = (uniqueAttribute.map { [$0] } ?? []) + uniqueWithin
        belongingRelationships = Set(relationships.filter(\.belongsToTarget).map(\.name))
        for part in uniqueKey {
            precondition(
                attributes.contains { $0.name == part && $0.type == .string }
                    || relationships.contains { $0.name == part },
                "\(name): the unique key's \(part) is neither a text attribute nor a relationship")
        }
        precondition(
            uniqueAttribute.map { part in attributes.contains { $0.name == part && $0.type == .string } } ?? true,
            "\(name): the unique attribute is a text attribute")
        self.modificationDateAttribute = modificationDateAttribute
        propertyNames = attributes.map(\.name) + relationships.map(\.name)
        // An attribute's type wins over a relationship of the same name, as `EntityDescription.type(of:)` always said.
        var types = [String: PropertyType](minimumCapacity: propertyNames.count)
        for relationship in relationships { types[relationship.name] = .reference }
        for attribute in attributes.reversed() { types[attribute.name] = attribute.type }
        propertyTypes = types
        var places = [String: Int](minimumCapacity: propertyNames.count)
        for (index, name) in propertyNames.enumerated() where places[name] == nil { places[name] = index }
        propertyColumns = places
        columnTypes = attributes.map(\.type) + relationships.map { _ in .reference }
        columnDefaults = attributes.map(\.defaultValue.databaseValue) + relationships.map { _ in .null }
        columnRules = attributes.map(\.rule) + relationships.map { _ in .any }
        var defaults = [String: PropertyValue](minimumCapacity: propertyNames.count)
        for attribute in attributes where attribute.defaultValue != .null {
            defaults[attribute.name] = attribute.defaultValue
        }
        recordedDefaults = defaults
        modificationDateColumn = modificationDateAttribute.flatMap { name in attributes.firstIndex { $0.name == name } }
        // Written out: GRDB's `databaseQuestionMarks` joins a `Repeated<String>`, which the
        // generic `joined` asks the runtime to check, a conformance walk at every store's open.
        var columnList = "id".quotedDatabaseIdentifier
        var marks = "?"
        for column in propertyNames + [EngineTables.clockColumn] {
            columnList += ", " + column.quotedDatabaseIdentifier
            marks += ",?"
        }
        insertSQL = "INSERT INTO \(table.quotedDatabaseIdentifier) (\(columnList)) VALUES (\(marks))"
        clocksSQL = "SELECT \(EngineTables.clockColumn) FROM \(table.quotedDatabaseIdentifier) WHERE id = ?"
        setClocksSQL = "UPDATE \(table.quotedDatabaseIdentifier) SET \(EngineTables.clockColumn) = ? WHERE id = ?"
    }

    let propertyNames: [String]
    let insertSQL: String
    let clocksSQL: String, setClocksSQL: String

    /// Each property's type, found by name: a merge asks for every value it reads, and a search
    /// of the attributes and relationships compared a dozen names an object.
    let propertyTypes: [String: PropertyType]

    /// Each property's place in ``propertyNames``: its column after `id` (the first, an
    /// attribute's, when a relationship has the same name).
    let propertyColumns: [String: Int]
    let columnTypes: [PropertyType], columnDefaults: [DatabaseValue]
    let columnRules: [ValueRule]
    /// Made with room for every property, so that an insert adds its values without growing it.
    let recordedDefaults: [String: PropertyValue]
    let modificationDateColumn: Int?
}
