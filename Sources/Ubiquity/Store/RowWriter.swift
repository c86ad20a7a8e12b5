import Foundation
import GRDB

/// Writes an object's row: the SQL that local saves and merged imports share.
enum RowWriter {
    /// Inserts a row with every property of `entity`: `values`, else the attribute's default;
    /// and its property clocks when they are known (``PropertyClocks/encode(_:)``), in the same
    /// statement.
    static func insert(
        _ entity: EntityDescription, id: GlobalID, values: [String: PropertyValue], clocks: String? = nil,
        _ db: Database
    ) throws {
        var row = [id.description.databaseValue]
        row.reserveCapacity(entity.propertyNames.count + 2)
        for attribute in entity.attributes {
            row.append((values[attribute.name] ?? attribute.defaultValue).databaseValue)
        }
        for relationship in entity.relationships { row.append((values[relationship.name] ?? .null).databaseValue) }
        try insert(entity, row: row, clocks: clocks, db)
    }

    /// Inserts a row made already: the ID, then every attribute and every relationship of
    /// `entity` in declaration order; then `clocks` (NULL: none yet, a local save stamps them).
    static func insert(_ entity: EntityDescription, row: [DatabaseValue], clocks: String? = nil, _ db: Database) throws
    {
        var row = row
        row.append(clocks.databaseValue)
        try db.executeCached(entity.insertSQL, binding: row)
    }

    /// Sets some columns of a row.
    static func update(_ entity: EntityDescription, id: GlobalID, values: [String: PropertyValue], _ db: Database)
        throws
    {
        guard !values.isEmpty else { return }
        let names = values.keys.sorted()
        let assignments = names.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
        try db.executeCached(
            "UPDATE \(entity.table.quotedDatabaseIdentifier) SET \(assignments) WHERE id = ?",
            binding: names.map { values[$0]!.databaseValue } + [id.description.databaseValue])
    }

    static func delete(_ entity: EntityDescription, id: GlobalID, _ db: Database) throws {
        try db.executeCached("DELETE FROM \(entity.table.quotedDatabaseIdentifier) WHERE id = ?", [id.description])
    }

    /// Every property of an object, or `nil` when there is no such row.
    static func values(_ entity: EntityDescription, id: GlobalID, _ db: Database) throws -> [String: PropertyValue]? {
        let columns = entity.propertyNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(columns) FROM \(entity.table.quotedDatabaseIdentifier) WHERE id = ?"),
                arguments: [id.description])
        else { return nil }
        var values: [String: PropertyValue] = [:]
        for (index, name) in entity.propertyNames.enumerated() {
            values[name] = PropertyValue(databaseValue: row[index] as DatabaseValue, type: entity.type(of: name)!)
        }
        return values
    }
}
