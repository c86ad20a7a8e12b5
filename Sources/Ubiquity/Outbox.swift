import Foundation
import GRDB

/// The outbox table: transaction records saved with their data, waiting to be exported.
enum Outbox {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func append(_ record: TransactionRecord, modelVersion: Int, in db: Database) throws {
        let payload = try encoder.encode(record)
        try db.execute(
            sql: "INSERT INTO \(EngineTables.outbox) (transactionID, timestamp, modelVersion, payload) VALUES (?, ?, ?, ?)",
            arguments: [record.transactionID.description, record.timestamp.timeIntervalSince1970, modelVersion, payload])
    }

    static func all(_ db: Database) throws -> [TransactionRecord] {
        let decoder = JSONDecoder()
        return try Data.fetchAll(db, sql: "SELECT payload FROM \(EngineTables.outbox) ORDER BY seq")
            .map { try decoder.decode(TransactionRecord.self, from: $0) }
    }

    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [EngineTables.outbox]) ?? 0
    }
}
