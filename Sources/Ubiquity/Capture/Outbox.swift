import Foundation
import GRDB

/// The change token's two parts, read together: saves (from any process) and imported batches.
/// Around an import, `saves` unchanged says the import made every change between two readings.
public struct ChangeCounts: Equatable, Sendable {
    public var saves: Int64
    public var imports: Int64
    /// What ``ObjectStore/changeToken()`` answers.
    public var token: Int64 { saves + imports }
}

/// The outbox table: transaction records saved with their data, waiting to be exported.
enum Outbox {
    /// Appends a save's record under the next sequence number: one past the last row's and
    /// past every number given before (``highWaterKey``), so that numbers are never reused
    /// after exported rows are removed. One statement; it writes the outbox's last page only.
    /// The row carries the device's clock after the save (`clock`: ``PropertyClocks/current(_:)``).
    ///
    /// - Parameter lastSequence: the last number given, when the caller knows it
    ///   (``RememberedSave``): the row takes the next without the store being read for it.
    /// - Returns: the row's number.
    static func append(
        _ record: TransactionRecord, payload: Data, clock: HLC?, after lastSequence: Int64?, modelVersion: Int,
        in db: Database
    ) throws -> Int64 {
        var row = [
            record.transactionID.description.databaseValue,
            record.timestamp.timeIntervalSince1970.databaseValue, modelVersion.databaseValue,
            payload.databaseValue, clock?.description.databaseValue ?? .null,
        ]
        if let lastSequence {
            row.append((lastSequence + 1).databaseValue)
            try db.executeCached(appendNumberedSQL, binding: row)
        } else {
            try db.executeCached(appendSQL, binding: row)
        }
        return db.lastInsertedRowID
    }

    /// The metadata key of the highest sequence number taken out of the outbox (or given
    /// before the outbox numbered its rows itself, `ubiquity-v5`): no later save is numbered
    /// at or below it.
    static let highWaterKey = "outboxHighWater"

    /// SQL: the last sequence number given, whether its row is still here or was exported.
    private static let lastSequence = """
        max(coalesce((SELECT max(seq) FROM \(EngineTables.outbox)), 0),
            coalesce((SELECT CAST(value AS INTEGER) FROM \(EngineTables.metadata) WHERE key = '\(highWaterKey)'), 0))
        """
    // The statements' text made once, not once a save.
    private static let appendSQL = """
        INSERT INTO \(EngineTables.outbox) (transactionID, timestamp, modelVersion, payload, clock, seq)
        VALUES (?, ?, ?, ?, ?, \(lastSequence) + 1)
        """
    private static let appendNumberedSQL = """
        INSERT INTO \(EngineTables.outbox) (transactionID, timestamp, modelVersion, payload, clock, seq)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    private static let countsSQL = """
        SELECT \(lastSequence),
               coalesce((SELECT CAST(value AS INTEGER) FROM \(EngineTables.metadata) WHERE key = 'importedBatches'), 0)
        """
    private static let highWaterSQL = """
        INSERT INTO \(EngineTables.metadata) (key, value) VALUES ('\(highWaterKey)', ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value
        WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)
        """

    static func all(_ db: Database) throws -> [TransactionRecord] {
        try Data.fetchAll(db, sql: "SELECT payload FROM \(EngineTables.outbox) ORDER BY seq")
            .map { try TransactionRecord(jsonData: $0) }
    }

    /// A number that grows with every save and every imported batch: saves grow the outbox's
    /// sequence (which never goes back, even when exported rows are removed), imports a counter.
    static func changeToken(_ db: Database) throws -> Int64 {
        try changeCounts(db).token
    }

    /// Saves are the last sequence number given, one a save (rows are numbered by
    /// ``append(_:modelVersion:in:)``, never by SQLite: the outbox has no `AUTOINCREMENT`).
    static func changeCounts(_ db: Database) throws -> ChangeCounts {
        let row = try Row.fetchOne(db.cachedStatement(sql: countsSQL))
        return ChangeCounts(saves: row?[0] ?? 0, imports: row?[1] ?? 0)
    }

    /// Counts an imported batch, in its transaction.
    static func countImport(_ db: Database) throws {
        try db.executeCached(
            """
            INSERT INTO \(EngineTables.metadata) (key, value) VALUES ('importedBatches', '1')
            ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
            """)
    }

    /// A save waiting to be exported.
    struct Pending {
        let sequence: Int64
        let modelVersion: Int
        let record: TransactionRecord
    }

    /// The oldest save not exported yet.
    static func first(_ db: Database) throws -> Pending? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT seq, modelVersion, payload FROM \(EngineTables.outbox) ORDER BY seq LIMIT 1"))
        else { return nil }
        return Pending(
            sequence: row[0], modelVersion: row[1],
            record: try TransactionRecord(jsonData: row[2] as Data))
    }

    /// Takes an exported save out. Its number is remembered (``highWaterKey``) in the same
    /// transaction: the next save is numbered after it even when the outbox is left empty; so is
    /// the device's clock when the row carries it (``PropertyClocks/keepCurrent(removing:_:)``).
    static func remove(sequence: Int64, _ db: Database) throws {
        try PropertyClocks.keepCurrent(removing: sequence, db)
        try db.executeCached("DELETE FROM \(EngineTables.outbox) WHERE seq = ?", [sequence])
        try db.executeCached(highWaterSQL, [String(sequence)])
    }
}
