import Foundation
import GRDB

/// The engine's own tables in every store, beside the model's.
enum EngineTables {
    /// Saved transactions not yet exported, in the order they were committed.
    static let outbox = "ubiquity_outbox"
    /// Local, never-synced facts about the store ("defaultDataImported", …).
    static let metadata = "ubiquity_metadata"

    /// Before `ubiquity-v7`, per object, the clock reading of the last write of each property.
    /// Since, those readings live in the object's row (``clockColumn``), and the table is
    /// renamed ``unheldClocks``.
    static let objectClock = "ubiquity_object_clock"
    /// What `ubiquity-v7` left of ``objectClock``: the rows of objects no table of the model
    /// held (none are read). Renamed rather than left, so that a process of an older build
    /// still running on the store fails to save instead of writing readings where none are read.
    static let unheldClocks = "ubiquity_unheld_clocks"
    /// The column the engine adds to every table of the model: the object's property clocks
    /// (``PropertyClocks``), NULL when it has none (a plain store's rows). Public as
    /// ``ModelDefinition/clockColumn``.
    static let clockColumn = "ubiquity_clocks"
    /// Deleted objects: a delete is final, later or concurrent changes do not bring them back.
    /// A copy merged into another (``MergedCopies``) has one naming the copy (`mergedInto`).
    static let tombstone = "ubiquity_tombstone"
    /// Per other peer, the last log applied (the import watermark).
    static let peerState = "ubiquity_peer_state"
    /// Imported property values whose blob file has not arrived yet.
    static let pendingBlob = "ubiquity_pending_blob"
    /// Files of the cloud folder refused, remembered by name, size and modification time so
    /// that they are not read again until they change.
    static let refusedFile = "ubiquity_refused_file"
    /// Per peer folder of the cloud folder, what the last listing found and the folder's stamp
    /// then: a folder whose stamp has not changed is not listed again (``FolderScans``).
    static let folderScan = "ubiquity_folder_scan"

    static func create(_ db: Database) throws {
        try db.create(table: outbox) { table in
            table.autoIncrementedPrimaryKey("seq")
            table.column("transactionID", .text).notNull().unique()
            table.column("timestamp", .double).notNull()
            table.column("modelVersion", .integer).notNull()
            table.column("payload", .blob).notNull()
        }
        try createSyncTables(db)
        try db.create(table: metadata) { table in
            table.primaryKey("key", .text)
            table.column("value", .text).notNull()
        }
    }

    /// The second engine migration, `ubiquity-v2`: refused files.
    static func createRefusedFiles(_ db: Database) throws {
        try db.create(table: refusedFile, options: .withoutRowID) { table in
            // Relative to the cloud folder.
            table.primaryKey("path", .text)
            table.column("kind", .text).notNull()
            table.column("peer", .text).notNull()
            table.column("seq", .integer).notNull()
            table.column("device", .text)
            table.column("reason", .text).notNull()
            table.column("size", .integer).notNull()
            table.column("mtime", .double).notNull()
            table.column("refusedAt", .double).notNull()
        }
    }

    /// The third engine migration, `ubiquity-v3`: a tombstone may name the copy its object was
    /// merged into (NULL: deleted).
    static func addMergedInto(_ db: Database) throws {
        try db.alter(table: tombstone) { table in
            table.add(column: "mergedInto", .text)
        }
    }

    /// The fourth engine migration, `ubiquity-v4`: remembered listings of peer folders.
    static func createFolderScans(_ db: Database) throws {
        try db.create(table: folderScan, options: .withoutRowID) { table in
            // Per folder of logs (model version and epoch), as the watermarks.
            table.column("folder", .text).notNull()
            // logs, baselines or refusals.
            table.column("kind", .text).notNull()
            table.column("peer", .text).notNull()
            // The folder's stamp (st_dev, st_ino, mtime and ctime in nanoseconds), who listed
            // it (effective uid), what it found and when: ``FolderScan/encoded``.
            table.column("listing", .blob).notNull()
            table.primaryKey(["folder", "kind", "peer"])
        }
    }

    /// The fifth engine migration, `ubiquity-v5`: the outbox rebuilt without the unique index
    /// on `transactionID` (random IDs, never looked up: a page less a save) and without
    /// `AUTOINCREMENT` (its `sqlite_sequence` row, another page a save). Rows keep their
    /// numbers and so their order; the last number given, which the change token counts, is
    /// carried into the metadata as the outbox's high-water mark (``Outbox/highWaterKey``):
    /// numbers, and tokens, go on from it and are never given twice.
    static func rebuildOutbox(_ db: Database) throws {
        let given =
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [outbox]) ?? 0
        let last = max(given, try Int64.fetchOne(db, sql: "SELECT max(seq) FROM \(outbox)") ?? 0)
        let rebuilt = "\(outbox)_v5"
        // Written out rather than through GRDB's table builder: a migration is never to change
        // with the library's defaults.
        try db.execute(
            sql: """
                CREATE TABLE \(rebuilt) (
                    seq INTEGER PRIMARY KEY,
                    transactionID TEXT NOT NULL,
                    timestamp DOUBLE NOT NULL,
                    modelVersion INTEGER NOT NULL,
                    payload BLOB NOT NULL);
                INSERT INTO \(rebuilt) (seq, transactionID, timestamp, modelVersion, payload)
                    SELECT seq, transactionID, timestamp, modelVersion, payload FROM \(outbox) ORDER BY seq;
                DROP TABLE \(outbox);
                ALTER TABLE \(rebuilt) RENAME TO \(outbox);
                """)
        try db.execute(
            sql: """
                INSERT INTO \(metadata) (key, value) VALUES (?, ?)
                ON CONFLICT(key) DO UPDATE SET value = excluded.value
                WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)
                """, arguments: [Outbox.highWaterKey, String(last)])
    }

    /// The sixth engine migration, `ubiquity-v6`, two changes of how clocks are stored:
    ///
    /// - Property clocks written packed, each distinct reading once with the properties that
    ///   have it (``PropertyClocks/encode(_:)``). Nothing is rewritten: rows in the older form
    ///   are read as they are and packed when next written. A build before this migration would
    ///   read a packed row as entries it cannot parse and skip them, every clock of the object
    ///   lost without a word; with the migration applied, it sees one it does not know and
    ///   refuses the store.
    /// - The outbox's rows carry the device's clock after their save (`clock`, NULL in the rows
    ///   already there): a save no longer writes the metadata's clock (``PropertyClocks/current(_:)``).
    ///   A build before would read the metadata's clock alone, behind the saves made since. The
    ///   outbox is rebuilt with `clock` before `payload` (a column added goes last): SQLite reads a
    ///   row's columns in order, and a column after a payload of megabytes (a seed, a large
    ///   import made here) meant reading every page of it at every save. Rows keep their numbers.
    static func packClocks(_ db: Database) throws {
        let rebuilt = "\(outbox)_v6"
        try db.execute(
            sql: """
                CREATE TABLE \(rebuilt) (
                    seq INTEGER PRIMARY KEY,
                    transactionID TEXT NOT NULL,
                    timestamp DOUBLE NOT NULL,
                    modelVersion INTEGER NOT NULL,
                    clock TEXT,
                    payload BLOB NOT NULL);
                INSERT INTO \(rebuilt) (seq, transactionID, timestamp, modelVersion, payload)
                    SELECT seq, transactionID, timestamp, modelVersion, payload FROM \(outbox) ORDER BY seq;
                DROP TABLE \(outbox);
                ALTER TABLE \(rebuilt) RENAME TO \(outbox);
                """)
    }

    /// The seventh engine migration, `ubiquity-v7`: property clocks move into the objects' rows
    /// (``clockColumn``), out of a table of their own. A save wrote a row there too, at a random
    /// place of its own B-tree — about two pages of the write-ahead log a save, a seventh of
    /// them. Rows of the clock table whose object no table of `schema` holds stay, in the table
    /// renamed ``unheldClocks``: a process of an older build that still has the store open (the
    /// app, while a newer command upgrades the store) then fails to save, with an error, rather
    /// than writing readings into a table nothing reads — its saves' readings lost, and so their
    /// place in the order of changes.
    static func moveClocksIntoRows(of schema: Schema, _ db: Database) throws {
        try addClockColumns(to: schema, db)
        for entity in schema.entities {
            let table = entity.table.quotedDatabaseIdentifier
            try db.execute(
                sql: """
                    UPDATE \(table) SET \(clockColumn) = (SELECT clocks FROM \(objectClock) WHERE objectID = \(table).id)
                    WHERE \(clockColumn) IS NULL;
                    DELETE FROM \(objectClock) WHERE objectID IN (SELECT id FROM \(table));
                    """)
        }
        try db.execute(sql: "ALTER TABLE \(objectClock) RENAME TO \(unheldClocks)")
    }

    /// Adds ``clockColumn`` to each table of `schema` that lacks it: after every migration of
    /// the model too, so that a table a later version creates has it.
    static func addClockColumns(to schema: Schema, _ db: Database) throws {
        for entity in schema.entities where try db.tableExists(entity.table) {
            guard try !db.columns(in: entity.table).contains(where: { $0.name == clockColumn }) else { continue }
            try db.execute(sql: "ALTER TABLE \(entity.table.quotedDatabaseIdentifier) ADD COLUMN \(clockColumn) TEXT")
        }
    }

    /// Clocks, tombstones, import watermarks.
    private static func createSyncTables(_ db: Database) throws {
        try db.create(table: objectClock, options: .withoutRowID) { table in
            table.primaryKey("objectID", .text)
            table.column("clocks", .text).notNull()
        }
        try db.create(table: tombstone, options: .withoutRowID) { table in
            table.primaryKey("objectID", .text)
            table.column("entity", .text).notNull()
            table.column("clock", .text).notNull()
        }
        try db.create(table: pendingBlob) { table in
            table.column("objectID", .text).notNull()
            table.column("entity", .text).notNull()
            table.column("property", .text).notNull()
            table.column("hash", .text).notNull()
            table.column("clock", .text).notNull()
            table.primaryKey(["objectID", "property"])
        }
        try db.create(table: peerState, options: .withoutRowID) { table in
            // Per folder of logs (model version and epoch): versions and epochs number apart.
            table.column("folder", .text).notNull()
            table.column("peer", .text).notNull()
            table.column("lastSeq", .integer).notNull()
            table.primaryKey(["folder", "peer"])
        }
    }
}
