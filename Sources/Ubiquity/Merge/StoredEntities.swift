import Foundation
import GRDB

/// Which entity this store holds each of many objects as — a row of an entity's table, or a
/// tombstone — read for all of them at once, before anything of a log (or a baseline) is
/// applied: one query per entity table and one for tombstones, however many objects there are.
///
/// Looking each object up on its own cost a query per table for every object not stored yet
/// (the usual case of an import: up to one query per entity and one for tombstones, each
/// object), which was a fifth of an import.
struct StoredEntities {
    /// The entities whose table holds the ID, in the schema's order (normally one at most).
    private var rows: [GlobalID: [String]] = [:]
    /// The entity of the ID's tombstone.
    private var tombstones: [GlobalID: String] = [:]
    /// The IDs read.
    private var read: Set<GlobalID> = []
    /// The IDs read that had property clocks then, when they were asked for.
    private var clocked: Set<GlobalID>?

    /// Reads what the store holds for `ids` (duplicates are harmless), and with `clocks`
    /// which of them have property clocks (``hadNoClocks(_:)``).
    init<IDs: Collection>(of ids: IDs, schema: Schema, clocks: Bool = false, _ db: Database) throws where IDs.Element == GlobalID {
        guard !ids.isEmpty else { return }
        read = Set(ids)
        // The IDs as one JSON array, read by `json_each`: a single argument, however many.
        // A global ID is hexadecimal digits and dashes: nothing in it needs escaping.
        var list = "["
        list.reserveCapacity(ids.count * 39 + 2)
        for id in ids {
            if list.utf8.count > 1 { list += "," }
            list += "\""
            list += id.description
            list += "\""
        }
        list += "]"
        let arguments: StatementArguments = [list]
        for entity in schema.entities {
            let sql = "SELECT id FROM \(entity.table.quotedDatabaseIdentifier) WHERE id IN (SELECT value FROM json_each(?))"
            for id in try GlobalID.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
                rows[id, default: []].append(entity.name)
            }
        }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT objectID, entity FROM \(EngineTables.tombstone) WHERE objectID IN (SELECT value FROM json_each(?))
            """), arguments: arguments)
        while let row = try rows.next() {
            guard let text = row[0] as String?, let id = GlobalID(text), let entity = row[1] as String? else { continue }
            tombstones[id] = entity
        }
        if clocks {
            let sql = "SELECT objectID FROM \(EngineTables.objectClock) WHERE objectID IN (SELECT value FROM json_each(?))"
            clocked = Set(try GlobalID.fetchAll(db.cachedStatement(sql: sql), arguments: arguments))
        }
    }

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
        tombstones[id] == nil && read.contains(id)
    }

    /// Whether `id` was read, with clocks asked for, and had no property clocks then: an object
    /// this store has merged nothing of (until something of it is merged since).
    func hadNoClocks(_ id: GlobalID) -> Bool {
        guard let clocked else { return false }
        return read.contains(id) && !clocked.contains(id)
    }
}
