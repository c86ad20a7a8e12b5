import Foundation
import GRDB

/// The clock readings that order changes: per object, the reading of the last write of each
/// property; per deleted object, a tombstone (whether an ID is deleted or merged: ``MergedCopies``);
/// per store, the device's clock (``LocalClock``).
enum PropertyClocks {
    private static let clockKey = "hlc"
    /// The last outbox row when the metadata's clock was written (0: none). The metadata's clock
    /// is the device's clock unless a later row carries one.
    private static let clockAsOfKey = "hlcAsOfSeq"

    // MARK: - The store's clock

    /// The device's clock as stored: the last outbox row's when it carries one made after the
    /// metadata's clock was written, else the metadata's.
    ///
    /// A save carries the clock in its outbox row (``Outbox/append(_:payload:clock:after:modelVersion:in:)``)
    /// rather than writing the metadata row too, a page of every save. An import that moves the
    /// clock writes the metadata, noting the last row then (``setCurrent(_:_:)``): outbox rows are
    /// never changed after their save. The exporter carries a row's clock into the metadata when
    /// it takes the last row out (``keepCurrent(removing:_:)``). Rows from before `ubiquity-v6`
    /// carry none: the metadata's clock, which those saves wrote, holds. The row's `clock`
    /// column comes before its payload: reading it never walks a large payload's pages.
    static func current(_ db: Database) throws -> HLC? {
        try String.fetchCached(db, currentSQL).flatMap { HLC(stored: $0) }
    }

    /// Moves the device's clock to `clock` (an import saw a later reading): into the metadata,
    /// as of the last outbox row.
    static func setCurrent(_ clock: HLC, _ db: Database) throws {
        // An upsert keeps the row where it is: REPLACE deletes and inserts it under a new rowid,
        // which wrote the key's index page too.
        try db.executeCached(upsertSQL, [clockKey, clock.description])
        try db.executeCached(
            """
            INSERT INTO \(EngineTables.metadata) (key, value)
            SELECT ?, coalesce(max(seq), 0) FROM \(EngineTables.outbox) WHERE true
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """, [clockAsOfKey])
    }

    /// Before the exporter takes the outbox row `sequence` out: when it is the last row, carries
    /// the device's clock and was made after the metadata's clock, that clock moves into the
    /// metadata, in the same transaction.
    static func keepCurrent(removing sequence: Int64, _ db: Database) throws {
        try db.executeCached(
            """
            INSERT INTO \(EngineTables.metadata) (key, value)
            SELECT ?, clock FROM \(EngineTables.outbox)
            WHERE seq = ? AND clock IS NOT NULL AND seq = (SELECT max(seq) FROM \(EngineTables.outbox)) AND seq > \(asOfSQL)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """, [clockKey, sequence])
        guard db.changesCount > 0 else { return }
        try db.executeCached(upsertSQL, [clockAsOfKey, String(sequence)])
    }

    private static let upsertSQL = """
        INSERT INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value
        """
    private static let asOfSQL =
        "coalesce((SELECT CAST(value AS INTEGER) FROM \(EngineTables.metadata) WHERE key = '\(clockAsOfKey)'), 0)"
    /// Scalar subqueries only, each a probe of a key: the last row found through `max(seq)`
    /// rather than joined as `ORDER BY seq DESC LIMIT 1`, which SQLite materializes into a
    /// temporary B-tree (a pager opened and closed at every save: 8 % of one).
    private static let currentSQL = """
        SELECT coalesce(
            (SELECT clock FROM \(EngineTables.outbox)
             WHERE seq = (SELECT max(seq) FROM \(EngineTables.outbox)) AND seq > \(asOfSQL)),
            (SELECT value FROM \(EngineTables.metadata) WHERE key = '\(clockKey)'))
        """

    // MARK: - Objects

    /// An object's readings, or `nil` when `entity`'s table has no such object. The readings
    /// are a column of the object's row (``EngineTables/clockColumn``), so this doubles as the
    /// existence check; a row without readings (a plain store's) has none.
    static func clockRow(of id: GlobalID, in entity: EntityDescription, _ db: Database) throws -> [String: HLC]? {
        let statement = try db.cachedStatement(sql: entity.clocksSQL)
        try statement.setArguments([id.description])
        guard let row = try Row.fetchOne(statement) else { return nil }
        return (row[0] as String?).map(decode) ?? [:]
    }

    static func clocks(of id: GlobalID, in entity: EntityDescription, _ db: Database) throws -> [String: HLC] {
        guard let text = try String.fetchCached(db, entity.clocksSQL, [id.description]) else { return [:] }
        return decode(text)
    }

    /// Sets the readings of the row `id` of `entity` (one that exists: the row is written first).
    static func setClocks(_ clocks: [String: HLC], of id: GlobalID, in entity: EntityDescription, _ db: Database) throws
    {
        try setEncoded(encode(clocks), of: id, in: entity, db)
    }

    /// ``setClocks(_:of:in:_:)`` of `names` all at `clock`: the same readings, without grouping.
    static func setClocks(
        _ names: some Collection<String>, at clock: HLC, of id: GlobalID, in entity: EntityDescription,
        _ db: Database
    ) throws {
        try setEncoded(encode(names, at: clock), of: id, in: entity, db)
    }

    private static func setEncoded(_ text: String, of id: GlobalID, in entity: EntityDescription, _ db: Database) throws
    {
        // The row was written in this transaction: its page is in the log already.
        try db.executeCached(entity.setClocksSQL, binding: [text.databaseValue, id.description.databaseValue])
    }

    /// Each distinct reading once, with the properties that have it: `reading:name,name;reading:name`,
    /// groups in the order of their first name, names sorted (local only, so plain text rather than
    /// JSON: encoding JSON was a fifth of a save). A save's properties share one reading, so a new
    /// object's row holds one reading, not one a property: a third of the size, fewer leaf splits
    /// of the table. Property names and readings hold no `=`, `:`, `,` or `;`.
    ///
    /// Stores before `ubiquity-v6` hold `name=reading;name=reading`, which ``decode(_:)`` still
    /// reads; a build before `ubiquity-v6` would skip the packed groups as entries it cannot parse
    /// (losing clocks silently), which is why the packed form comes with that migration: such a
    /// build refuses the store.
    static func encode(_ clocks: [String: HLC]) -> String {
        // A few distinct readings at most: found by a linear search, not hashed.
        var groups: [(clock: HLC, names: [String])] = []
        for name in clocks.keys.sorted() {
            let clock = clocks[name]!
            if let index = groups.firstIndex(where: { $0.clock == clock }) {
                groups[index].names.append(name)
            } else {
                groups.append((clock, [name]))
            }
        }
        var result = ""
        result.reserveCapacity(groups.count * 64 + clocks.count * 12)
        for group in groups {
            if !result.isEmpty { result += ";" }
            result += group.clock.description
            result += ":"
            for (index, name) in group.names.enumerated() {
                if index > 0 { result += "," }
                result += name
            }
        }
        return result
    }

    /// ``encode(_:)`` of `names` all at `clock`, without a dictionary of them: what an insert
    /// writes.
    static func encode(_ names: some Collection<String>, at clock: HLC) -> String {
        guard !names.isEmpty else { return "" }
        // Written as bytes into a string made at its size: appending each part to a string cost
        // as much as the rest of the encoding (every insert and every imported object makes one).
        var reading = clock.description
        let sorted = names.sorted()
        let length = reading.utf8.count + sorted.reduce(0) { $0 + $1.utf8.count + 1 }
        return String(unsafeUninitializedCapacity: length) { text in
            var position = 0
            func write(_ part: inout String) {
                part.withUTF8 { bytes in
                    for byte in bytes {
                        text[position] = byte
                        position += 1
                    }
                }
            }
            write(&reading)
            var separator = UInt8(ascii: ":")
            for var name in sorted {
                text[position] = separator
                position += 1
                separator = UInt8(ascii: ",")
                write(&name)
            }
            return position
        }
    }

    /// Reads both forms, entry by entry: `reading:name,name` (``encode(_:)``) and the older
    /// `name=reading`. An entry that parses as neither is skipped.
    static func decode(_ text: String) -> [String: HLC] {
        var clocks: [String: HLC] = [:]
        for entry in text.split(separator: ";") {
            if let equals = entry.firstIndex(of: "=") {
                guard let clock = HLC(stored: String(entry[entry.index(after: equals)...])) else { continue }
                clocks[String(entry[..<equals])] = clock
            } else if let colon = entry.firstIndex(of: ":"), let clock = HLC(stored: String(entry[..<colon])) {
                for name in entry[entry.index(after: colon)...].split(separator: ",") {
                    clocks[String(name)] = clock
                }
            }
        }
        return clocks
    }

    /// Marks the properties a local save wrote with its clock reading. Inserted rows for which
    /// `insertsWritten` holds were written with these readings already (``SaveClock``).
    static func stamp(
        _ record: TransactionRecord, clock: HLC, schema: Schema,
        insertsWritten: (ObjectChange, HLC) -> Bool, _ db: Database
    ) throws {
        // An insert writes every property it records (not the nulls it was created with):
        // nothing earlier to keep.
        for change in record.inserted where change.readings != nil || !insertsWritten(change, clock) {
            guard let entity = schema.entity(named: change.object.entity) else { continue }
            if let carried = change.readings {
                // Values carried from another store keep their readings (``SaveContext/carry``).
                let clocks = Dictionary(uniqueKeysWithValues: change.values.keys.map { ($0, carried[$0] ?? clock) })
                try setClocks(clocks, of: change.object.id, in: entity, db)
            } else {
                try setEncoded(encode(change.values.keys, at: clock), of: change.object.id, in: entity, db)
            }
        }
        for change in record.updated {
            guard let entity = schema.entity(named: change.object.entity) else { continue }
            var clocks = try self.clocks(of: change.object.id, in: entity, db)
            for property in change.values.keys { clocks[property] = change.readings?[property] ?? clock }
            try setClocks(clocks, of: change.object.id, in: entity, db)
        }
        for object in record.deleted { try tombstone(object, clock: clock, db) }
        // Merged copies were tombstoned when merged, before the save had its reading.
        for merge in record.merged {
            try db.executeCached(
                "UPDATE \(EngineTables.tombstone) SET clock = ? WHERE objectID = ?",
                [clock.description, merge.object.id.description])
        }
    }

    // MARK: - Tombstones

    /// Marks an object deleted, or merged into another copy (`mergedInto`); the first mark stays.
    /// Its readings went with its row, which the caller deletes.
    static func tombstone(_ object: ObjectID, clock: HLC, mergedInto: GlobalID? = nil, _ db: Database) throws {
        try db.executeCached(
            "INSERT OR IGNORE INTO \(EngineTables.tombstone) (objectID, entity, clock, mergedInto) VALUES (?, ?, ?, ?)",
            [object.id.description, object.entity, clock.description, mergedInto?.description])
    }

    /// Whether `id` has a tombstone: deleted here or on a peer, or merged into another copy.
    static func isDeleted(_ id: GlobalID, _ db: Database) throws -> Bool {
        try Bool.fetchCached(db, "SELECT 1 FROM \(EngineTables.tombstone) WHERE objectID = ?", [id.description])
            ?? false
    }
}
