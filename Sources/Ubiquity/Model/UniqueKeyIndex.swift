import Foundation
import GRDB

/// An index of each entity's unique key (``EntityDescription/uniqueKey``, texts by
/// ``UniqueKey``), `CREATE INDEX … ON item(ubiquity_unique_key(name), name)`: deduplication groups the keys by reading the index
/// alone, in key order, and finds a key's copies without reading the table.
///
/// The attribute itself is the index's second column. SQLite 3.40 (Debian 12) does not read an
/// expression's value back from an index (3.41 does): it computes the key again for every entry
/// from the attribute, which the index now holds too — before, it fetched each row from the table
/// for it, a third of the grouped query's time at 10k items.
///
/// Made when a store opens, not by a migration: an index is no change of format, so an older
/// build still opens the store (it registers the same function, which SQLite needs to write to
/// the table). The index's name carries the rule's name: when the rule changes, the index built
/// by the old rule is dropped and built again by the new one.
///
/// Another SQLite tool, without the function, still reads everything, but cannot change those
/// names (SQLite refuses: "unknown function"); a plain copy (`writePlainCopy`), meant for such
/// tools, has no such index.
enum UniqueKeyIndex {
    /// Names every index this makes begins with.
    static let prefix = "ubiquity_key_"
    /// The rule the keys follow today (as ``Deduplicator/tokenKey``).
    static let rule = "nfc_casefold"
    /// The index's columns: the key and the attribute. An index of another shape (the key alone,
    /// before) has another name, and is replaced like one of another rule.
    static let shape = "covering"

    static func name(of table: String) -> String { "\(prefix)\(rule)_\(shape)_\(table)" }

    /// The index of `entity`'s key: the name of a key of one text attribute is ``name(of:)``;
    /// a key of several parts names them, so that a key that gains a part (a model version that
    /// makes aisles unique within their shop) gets an index of its own.
    static func name(of entity: EntityDescription) -> String {
        let single = entity.uniqueKey.count == 1 && entity.uniqueAttribute != nil
        return single ? name(of: entity.table) : name(of: entity.table) + "_" + entity.uniqueKey.joined(separator: "_")
    }

    /// The SQL of each part of `entity`'s key: a text attribute's key (``UniqueKey``), a
    /// reference as it is stored (quoted names).
    static func keyExpressions(of entity: EntityDescription) -> [String] {
        entity.uniqueKey.map { part in
            part == entity.uniqueAttribute || entity.type(of: part) == .string
                ? "\(UniqueKey.sqlName)(\(part.quotedDatabaseIdentifier))" : part.quotedDatabaseIdentifier
        }
    }

    /// The index's columns: the key's parts, then the text attribute itself (see above).
    static func columns(of entity: EntityDescription) -> [String] {
        keyExpressions(of: entity) + (entity.uniqueAttribute.map { [$0.quotedDatabaseIdentifier] } ?? [])
    }

    /// Drops every index this makes, whatever its rule.
    static func drop(_ db: Database) throws {
        let names = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE ? ESCAPE '\\'",
            arguments: [likePattern])
        for index in names { try db.execute(sql: "DROP INDEX IF EXISTS \(index.quotedDatabaseIdentifier)") }
    }

    /// `LIKE` for the names this makes: the prefix, its underscores escaped. Escaped by the standard
    /// library: Foundation's `replacingOccurrences` goes through `NSString`, about a
    /// quarter of a millisecond at every store's opening.
    private static let likePattern = prefix.map { $0 == "_" ? "\\_" : String($0) }.joined() + "%"

    /// Makes the missing indexes and drops those of an older rule, in one write; reads only when
    /// everything is in place already.
    static func ensure(for schema: Schema, in database: any DatabaseWriter) throws {
        let wanted = schema.entities.filter { !$0.uniqueKey.isEmpty }
        guard !wanted.isEmpty else { return }
        let existing = try database.read { db in
            try String.fetchSet(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE ? ESCAPE '\\'",
                arguments: [likePattern])
        }
        let names = Set(wanted.map { name(of: $0) })
        guard names != existing else { return }
        try database.write { db in
            for index in existing.subtracting(names) {
                try db.execute(sql: "DROP INDEX IF EXISTS \(index.quotedDatabaseIdentifier)")
            }
            for entity in wanted where try db.tableExists(entity.table) {
                try db.execute(
                    sql: """
                        CREATE INDEX IF NOT EXISTS \(name(of: entity).quotedDatabaseIdentifier)
                        ON \(entity.table.quotedDatabaseIdentifier)(\(columns(of: entity).joined(separator: ", ")))
                        """)
            }
        }
    }
}
