import Foundation
import GRDB

/// The clock readings that order changes: per object, the reading of the last write of each
/// property; per deleted object, a tombstone (whether an ID is deleted or merged: ``MergedCopies``);
/// per store, the device's clock (``LocalClock``).
enum PropertyClocks {
    private static let clockKey = "hlc"

    // MARK: - The store's clock

    static func current(_ db: Database) throws -> HLC? {
        try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [clockKey])
            .flatMap(HLC.init)
    }

    static func setCurrent(_ clock: HLC, _ db: Database) throws {
        // An upsert keeps the row where it is: REPLACE deletes and inserts it under a new rowid,
        // which wrote the key's index page too, a page of every save.
        try db.executeCached("""
            INSERT INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """, [clockKey, clock.description])
    }

    // MARK: - Objects

    /// An object's readings, or `nil` when the store has no such object: every write of a row,
    /// local or imported, writes its clock row too, so this doubles as the existence check.
    static func clockRow(of id: GlobalID, _ db: Database) throws -> [String: HLC]? {
        try String.fetchCached(db, "SELECT clocks FROM \(EngineTables.objectClock) WHERE objectID = ?", [id.description])
            .map(decode)
    }

    static func clocks(of id: GlobalID, _ db: Database) throws -> [String: HLC] {
        guard let text = try String.fetchCached(db, "SELECT clocks FROM \(EngineTables.objectClock) WHERE objectID = ?", [id.description])
        else { return [:] }
        return decode(text)
    }

    static func setClocks(_ clocks: [String: HLC], of id: GlobalID, _ db: Database) throws {
        let text = encode(clocks)
        try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.objectClock) (objectID, clocks) VALUES (?, ?)",
                       [id.description, text])
    }

    /// `name=reading;name=reading`, sorted by name: local only, so plain text rather than JSON
    /// (encoding JSON was a fifth of a save). Property names and readings hold no `=` or `;`.
    static func encode(_ clocks: [String: HLC]) -> String {
        // A save's properties share one reading: the last reading formatted is formatted again
        // only when the next one differs (no hashing of readings).
        var last: (clock: HLC, text: String)?
        var result = ""
        result.reserveCapacity(clocks.count * 48)
        for name in clocks.keys.sorted() {
            let clock = clocks[name]!
            let text: String
            if let last, last.clock == clock { text = last.text } else { text = clock.description }
            last = (clock, text)
            if !result.isEmpty { result += ";" }
            result += name
            result += "="
            result += text
        }
        return result
    }

    static func decode(_ text: String) -> [String: HLC] {
        var clocks: [String: HLC] = [:]
        for entry in text.split(separator: ";") {
            guard let equals = entry.firstIndex(of: "="), let clock = HLC(String(entry[entry.index(after: equals)...])) else { continue }
            clocks[String(entry[..<equals])] = clock
        }
        return clocks
    }

    /// Marks the properties a local save wrote with its clock reading.
    static func stamp(_ record: TransactionRecord, clock: HLC, _ db: Database) throws {
        // An insert writes every property it records (not the nulls it was created with):
        // nothing earlier to keep.
        for change in record.inserted {
            try setClocks(change.values.mapValues { _ in clock }, of: change.object.id, db)
        }
        for change in record.updated {
            var clocks = try self.clocks(of: change.object.id, db)
            for property in change.values.keys { clocks[property] = clock }
            try setClocks(clocks, of: change.object.id, db)
        }
        for object in record.deleted { try tombstone(object, clock: clock, db) }
        // Merged copies were tombstoned when merged, before the save had its reading.
        for merge in record.merged {
            try db.executeCached("UPDATE \(EngineTables.tombstone) SET clock = ? WHERE objectID = ?",
                                 [clock.description, merge.object.id.description])
        }
    }

    // MARK: - Tombstones

    /// Marks an object deleted, or merged into another copy (`mergedInto`); the first mark stays.
    static func tombstone(_ object: ObjectID, clock: HLC, mergedInto: GlobalID? = nil, _ db: Database) throws {
        try db.executeCached("INSERT OR IGNORE INTO \(EngineTables.tombstone) (objectID, entity, clock, mergedInto) VALUES (?, ?, ?, ?)",
                       [object.id.description, object.entity, clock.description, mergedInto?.description])
        try db.executeCached("DELETE FROM \(EngineTables.objectClock) WHERE objectID = ?", [object.id.description])
    }

    /// Whether `id` has a tombstone: deleted here or on a peer, or merged into another copy.
    static func isDeleted(_ id: GlobalID, _ db: Database) throws -> Bool {
        try Bool.fetchCached(db, "SELECT 1 FROM \(EngineTables.tombstone) WHERE objectID = ?", [id.description]) ?? false
    }
}
