import Foundation
import GRDB

/// The clock readings that order changes: per object, the reading of the last write of each
/// property; per deleted object, a tombstone; per store, the latest reading seen.
enum PropertyClocks {
    private static let clockKey = "hlc"

    // MARK: - The store's clock

    static func current(_ db: Database) throws -> HLC? {
        try String.fetchOne(db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", arguments: [clockKey])
            .flatMap(HLC.init)
    }

    static func setCurrent(_ clock: HLC, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                       arguments: [clockKey, clock.description])
    }

    // MARK: - Objects

    static func clocks(of id: GlobalID, _ db: Database) throws -> [String: HLC] {
        guard let text = try String.fetchOne(
            db, sql: "SELECT clocks FROM \(EngineTables.objectClock) WHERE objectID = ?", arguments: [id.description])
        else { return [:] }
        let raw = (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
        return raw.compactMapValues(HLC.init)
    }

    static func setClocks(_ clocks: [String: HLC], of id: GlobalID, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(clocks.mapValues(\.description)), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO \(EngineTables.objectClock) (objectID, clocks) VALUES (?, ?)",
                       arguments: [id.description, text])
    }

    /// Marks the properties a local save wrote with its clock reading.
    static func stamp(_ record: TransactionRecord, clock: HLC, _ db: Database) throws {
        for change in record.inserted + record.updated {
            var clocks = try self.clocks(of: change.object.id, db)
            for property in change.values.keys { clocks[property] = clock }
            try setClocks(clocks, of: change.object.id, db)
        }
        for object in record.deleted { try tombstone(object, clock: clock, db) }
        try setCurrent(clock, db)
    }

    // MARK: - Tombstones

    static func tombstone(_ object: ObjectID, clock: HLC, _ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO \(EngineTables.tombstone) (objectID, entity, clock) VALUES (?, ?, ?)",
                       arguments: [object.id.description, object.entity, clock.description])
        try db.execute(sql: "DELETE FROM \(EngineTables.objectClock) WHERE objectID = ?", arguments: [object.id.description])
    }

    static func isDeleted(_ id: GlobalID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM \(EngineTables.tombstone) WHERE objectID = ?", arguments: [id.description]) ?? false
    }
}
