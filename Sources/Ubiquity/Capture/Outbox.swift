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
    static func append(_ record: TransactionRecord, modelVersion: Int, in db: Database) throws {
        let payload = record.jsonData()
        try db.executeCached("INSERT INTO \(EngineTables.outbox) (transactionID, timestamp, modelVersion, payload) VALUES (?, ?, ?, ?)",
            [record.transactionID.description, record.timestamp.timeIntervalSince1970, modelVersion, payload])
    }

    static func all(_ db: Database) throws -> [TransactionRecord] {
        try Data.fetchAll(db, sql: "SELECT payload FROM \(EngineTables.outbox) ORDER BY seq")
            .map { try TransactionRecord(jsonData: $0) }
    }

    /// A number that grows with every save and every imported batch: saves grow the outbox's
    /// sequence (which never goes back, even when exported rows are removed), imports a counter.
    static func changeToken(_ db: Database) throws -> Int64 {
        try changeCounts(db).token
    }

    static func changeCounts(_ db: Database) throws -> ChangeCounts {
        let saves = try Int64.fetchCached(db, "SELECT seq FROM sqlite_sequence WHERE name = ?", [EngineTables.outbox]) ?? 0
        let imports = try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = 'importedBatches'").flatMap { Int64($0) } ?? 0
        return ChangeCounts(saves: saves, imports: imports)
    }

    /// Counts an imported batch, in its transaction.
    static func countImport(_ db: Database) throws {
        try db.executeCached("""
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
        guard let row = try Row.fetchOne(
            db, sql: "SELECT seq, modelVersion, payload FROM \(EngineTables.outbox) ORDER BY seq LIMIT 1")
        else { return nil }
        return Pending(sequence: row[0], modelVersion: row[1],
                       record: try TransactionRecord(jsonData: row[2] as Data))
    }

    static func remove(sequence: Int64, _ db: Database) throws {
        try db.executeCached("DELETE FROM \(EngineTables.outbox) WHERE seq = ?", [sequence])
    }
}
