import Foundation
import GRDB

/// The engine's own tables in every store, beside the model's.
enum EngineTables {
    /// Saved transactions not yet exported, in the order they were committed.
    static let outbox = "ubiquity_outbox"
    /// Local, never-synced facts about the store ("defaultDataImported", …).
    static let metadata = "ubiquity_metadata"

    static func create(_ db: Database) throws {
        try db.create(table: outbox) { table in
            table.autoIncrementedPrimaryKey("seq")
            table.column("transactionID", .text).notNull().unique()
            table.column("timestamp", .double).notNull()
            table.column("modelVersion", .integer).notNull()
            table.column("payload", .blob).notNull()
        }
        try db.create(table: metadata) { table in
            table.primaryKey("key", .text)
            table.column("value", .text).notNull()
        }
    }
}
