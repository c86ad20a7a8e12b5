import Foundation
import GRDB
import Ubiquity

/// Turns what a user typed into the one object they mean: a name (ignoring case, surrounding
/// or repeated spaces and the Unicode form, ``UniqueKey``) or a prefix of a global ID.
enum ReferenceResolver {
    /// The shortest ID prefix accepted, so that a short word is not taken for an ID.
    static let minimumIDPrefix = 4

    /// - Parameter within: the column and the object a name is unique within (a shop's
    ///   aisles: `shop` and the shop); `nil` for names unique in the table.
    static func resolve(
        _ reference: String, kind: String, table: String, nameColumn: String, within: Scope? = nil, db: Database
    ) throws -> GlobalID {
        try resolveNamed(reference, kind: kind, table: table, nameColumn: nameColumn, within: within, db: db).id
    }

    /// ``resolve(_:kind:table:nameColumn:within:db:)`` with the object's name as it is stored.
    static func resolveNamed(
        _ reference: String, kind: String, table: String, nameColumn: String, within: Scope? = nil, db: Database
    ) throws -> (id: GlobalID, name: String) {
        let wanted = Validation.normalized(reference)
        guard !wanted.isEmpty else { throw GroceryError.notFound(kind: kind, reference: reference) }
        let byName = try rowsNamed(wanted, table: table, nameColumn: nameColumn, within: within, db: db)
        let candidates: [Row]
        if !byName.isEmpty {
            // An exact spelling wins over other spellings that normalize the same ("kg" / "Kg").
            // (Swift's == does not tell Unicode forms apart: "Café" is one spelling.)
            let exact = byName.filter { ($0["name"] as String?) == reference }
            candidates = exact.count == 1 ? exact : byName
            if candidates.count > 1 {
                throw GroceryError.duplicates(kind: kind, reference: reference, candidates: describe(candidates))
            }
        } else if (minimumIDPrefix...36).contains(wanted.count), wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            // No ID is longer than 36 characters (and SQLite refuses a very long LIKE pattern).
            candidates = try Row.fetchAll(
                db, sql: "SELECT id, \(nameColumn) AS name FROM \(table) WHERE id LIKE ? || '%'" + (within?.sql ?? ""),
                arguments: arguments(wanted, within))
        } else {
            candidates = []
        }
        switch candidates.count {
        case 0:
            throw GroceryError.notFound(kind: kind, reference: reference)
        case 1:
            return (candidates[0]["id"], candidates[0]["name"] as String? ?? "")
        default:
            throw GroceryError.ambiguous(kind: kind, reference: reference, candidates: describe(candidates))
        }
    }

    /// `"Milk" (6f1c2d3e)` for each candidate, sorted.
    private static func describe(_ candidates: [Row]) -> [String] {
        candidates.map { row -> String in
            let id: String = row["id"]
            return "\((row["name"] as String? ?? "").debugDescription) (\(id.prefix(8)))"
        }.sorted()
    }

    /// The column and the object a name is unique within.
    struct Scope {
        let column: String
        let id: GlobalID

        /// The condition, with one argument: ` AND "shop" = ?`.
        var sql: String { " AND \(column.quotedDatabaseIdentifier) = ?" }
    }

    /// The objects whose name normalizes like `name`.
    static func matches(_ name: String, table: String, nameColumn: String, within: Scope? = nil, db: Database) throws
        -> [(id: GlobalID, name: String)]
    {
        try rowsNamed(Validation.normalized(name), table: table, nameColumn: nameColumn, within: within, db: db).map {
            ($0["id"], $0["name"])
        }
    }

    /// Rows (`id`, `name`) whose name normalizes to `wanted`, in the table's order.
    ///
    /// SQLite compares keys itself (`UniqueKey.sqlName`, the rule of ``UniqueKey``, registered
    /// on every connection of a store): for an entity's unique attribute the store keeps an index
    /// of those keys, so a name is found by one probe of it instead of a scan of the table
    /// (10k items: the command's fixed cost instead of several milliseconds). Both sides go
    /// through the same function, so the rows are those whose normalized name equals `wanted`.
    private static func rowsNamed(_ wanted: String, table: String, nameColumn: String, within: Scope?, db: Database)
        throws -> [Row]
    {
        // The rows copied one by one from GRDB's cursor: `Row.fetchAll` maps the cursor through
        // a generic one, whose type the runtime checks with a conformance walk.
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: namedSQL(table: table, nameColumn: nameColumn, within: within)),
            arguments: arguments(wanted, within))
        var copied: [Row] = []
        while let row = try rows.next() { copied.append(row.copy()) }
        return copied
    }

    /// The name looked for, then the scope's object, as texts: an array of `Any` (which a bare
    /// array literal of them becomes) is cast value by value, a conformance walk the first time.
    private static func arguments(_ wanted: String, _ within: Scope?) -> StatementArguments {
        let values: [String] = [wanted] + (within.map { [$0.id.description] } ?? [])
        return StatementArguments(values)
    }

    /// The query of ``rowsNamed(_:table:nameColumn:within:db:)``: the name looked for, then the
    /// scope's object.
    static func namedSQL(table: String, nameColumn: String, within: Scope? = nil) -> String {
        let column = nameColumn.quotedDatabaseIdentifier
        let key = UniqueKey.sqlName
        return """
            SELECT id, \(column) AS name FROM \(table.quotedDatabaseIdentifier)
            WHERE \(key)(\(column)) = \(key)(?)\(within?.sql ?? "") ORDER BY rowid
            """
    }

    static func ensureNameIsFree(
        _ name: String, kind: String, table: String, nameColumn: String, within: Scope? = nil, db: Database
    ) throws {
        if let existing = try matches(name, table: table, nameColumn: nameColumn, within: within, db: db).first {
            throw GroceryError.alreadyExists(kind: kind, name: existing.name)
        }
    }
}
