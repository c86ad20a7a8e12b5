import Foundation
import GRDB

/// Which entity this store holds each of many objects as — a row of an entity's table, or a
/// tombstone — read for all of them at once, before anything of a log (or a baseline) is
/// applied: one query, however many objects there are.
///
/// Looking each object up on its own cost a query per table for every object not stored yet
/// (the usual case of an import: up to one query per entity and one for tombstones, each
/// object), which was a fifth of an import. A query per table (`id IN (SELECT value FROM
/// json_each(?))`) built the list into a temporary index once a table; the one query walks
/// the list once and probes every table's primary key for each ID, returning only the IDs
/// something holds — none, for a log of new objects.
struct StoredEntities {
    /// The entities whose table holds the ID, in the schema's order (normally one at most).
    private var rows: [GlobalID: [String]] = [:]
    /// The entity of the ID's tombstone.
    private var tombstones: [GlobalID: String] = [:]
    /// The IDs read.
    private var read: Set<GlobalID> = []

    /// Entity tables joined in one statement at most: SQLite joins 64 tables at most.
    private static let tablesPerQuery = 48

    /// Reads what the store holds for `ids` (duplicates are harmless).
    init<IDs: Collection>(of ids: IDs, schema: Schema, _ db: Database) throws where IDs.Element == GlobalID {
        guard !ids.isEmpty else { return }
        read = Set(ids)
        // The IDs as one JSON array, read by `json_each`: a single argument, however many.
        // Each once: the query returns a row for each element holding something.
        let arguments: StatementArguments = [Self.jsonList(of: read)]
        var start = 0
        repeat {
            // The first query also reads the tombstones; the rest, only when
            // a schema has more entities than one statement may join, the other tables.
            let tables = Array(schema.entities[start..<min(schema.entities.count, start + Self.tablesPerQuery)])
            let engine = start == 0
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: Self.query(tables, tombstones: engine)), arguments: arguments)
            while let row = try rows.next() {
                guard let text = row[0] as String?, let id = GlobalID(text) else { continue }
                for (index, entity) in tables.enumerated() where row[index + 1] as Bool == true {
                    self.rows[id, default: []].append(entity.name)
                }
                guard engine else { continue }
                if let entity = row[tables.count + 1] as String? { tombstones[id] = entity }
            }
            start += Self.tablesPerQuery
        } while start < schema.entities.count
    }

    /// The IDs as a JSON array of strings, written as bytes: a global ID is hexadecimal digits
    /// and dashes, nothing in it needs escaping. Appending to a string four times an ID cost
    /// about 1,360 instructions an ID, an eighth of the check.
    static func jsonList(of ids: Set<GlobalID>) -> String {
        var size = 2
        for id in ids { size += id.description.utf8.count + 3 }
        return String(unsafeUninitializedCapacity: size) { bytes in
            var position = 0
            func put(_ byte: UInt8) {
                bytes[position] = byte
                position += 1
            }
            put(UInt8(ascii: "["))
            for id in ids {
                if position > 1 { put(UInt8(ascii: ",")) }
                put(UInt8(ascii: "\""))
                var text = id.description
                text.withUTF8 { utf8 in
                    for byte in utf8 { put(byte) }
                }
                put(UInt8(ascii: "\""))
            }
            put(UInt8(ascii: "]"))
            return position
        }
    }

    /// `SELECT value, <held by each table>…[, tombstone's entity]` for the IDs of the JSON array
    /// bound, those something holds: a left join a table, each a probe of its primary key.
    private static func query(_ tables: [EntityDescription], tombstones: Bool) -> String {
        var columns = ["ids.value"]
        var joins: [String] = []
        var held: [String] = []
        for (index, entity) in tables.enumerated() {
            columns.append("t\(index).id IS NOT NULL")
            joins.append("LEFT JOIN \(entity.table.quotedDatabaseIdentifier) t\(index) ON t\(index).id = ids.value")
            held.append("t\(index).id IS NOT NULL")
        }
        if tombstones {
            columns.append("tombstone.entity")
            joins.append("LEFT JOIN \(EngineTables.tombstone) tombstone ON tombstone.objectID = ids.value")
            held.append("tombstone.objectID IS NOT NULL")
        }
        return "SELECT \(columns.joined(separator: ", ")) FROM json_each(?) ids \(joins.joined(separator: " "))"
            + " WHERE \(held.joined(separator: " OR "))"
    }

    /// Whether the store held none of the IDs read, as a row or a tombstone: a log of new objects.
    var holdsNone: Bool { rows.isEmpty && tombstones.isEmpty }

    /// The entity this store holds `id` as, or `nil` when it has never seen it: `expected`
    /// when its table has the row, else the tombstone's, else the first other table's.
    func entity(holding id: GlobalID, expected: String) -> String? {
        let holders = rows[id] ?? []
        if holders.contains(expected) { return expected }
        if let deleted = tombstones[id] { return deleted }
        return holders.first
    }

    /// Whether `id` was read and has no tombstone: it then stands for itself, not deleted nor
    /// merged away (what ``MergedCopies/survivor(of:_:)`` answers), until a tombstone is written.
    func hasNoTombstone(_ id: GlobalID) -> Bool {
        // Most logs name no object with a tombstone: no lookup in an empty dictionary.
        (tombstones.isEmpty || tombstones[id] == nil) && read.contains(id)
    }

    /// Whether `id` was read and `entity`'s table had no row of it then: an object this store
    /// has merged nothing of as that entity (until something of it is merged since), and so
    /// has no property clocks of.
    func hadNoRow(_ id: GlobalID, in entity: EntityDescription) -> Bool {
        // A log of new objects holds none that the store has: no lookup in an empty dictionary.
        read.contains(id) && (rows.isEmpty || !(rows[id]?.contains(entity.name) ?? false))
    }
}
