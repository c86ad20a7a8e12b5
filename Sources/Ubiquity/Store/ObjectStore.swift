import Foundation
import GRDB
import GRDBSQLite
import Logging
import TextAndFiles

/// A store of a declared model in one SQLite file: every change goes through ``save(author:_:)``,
/// which commits the data and its ``TransactionRecord`` (the outbox) in one SQLite transaction.
///
/// Several processes may open the same file at once: opening it (creating, migrating, the
/// first-launch setup) takes turns under a ``StoreOpenLock``, and once open SQLite's WAL mode
/// and a busy timeout let them share it safely.
public final class ObjectStore: Sendable {
    public let path: String
    public let schema: Schema
    /// Whether this open created the store (a device's first launch).
    public let isNew: Bool
    /// Reach it through ``read(_:)``, ``write(_:)`` and ``save(author:_:)``: they keep the
    /// store open while they run (``UsageGate``).
    private let database: any DatabaseWriter
    private let connections: StoreConnections
    private let gate: UsageGate
    /// Checkpoints the write-ahead log off the committing thread.
    private let checkpointer: WALCheckpointer
    /// The peer whose saves these are: the third part of every clock reading it makes.
    public let peer: String
    /// The device and person this store's own saves waiting in the outbox are shown under in
    /// its history (``ChangeHistory``); set by the device layer, `nil` until then.
    public let historyAuthor = LockedValue<(device: String, person: String)?>(nil)
    /// Where "now" comes from: saves' dates, and how far readings seen may move its clock.
    let clock: any WallClock
    private let ids: any IDGenerator
    private let logger: Logger
    private let saveObservers = ObserverList<TransactionRecord>()
    /// The device's clock and the outbox's last number as the last save left them, while
    /// nothing committed since.
    let rememberedSave = RememberedSave()
    /// The last digest's bucket hashes and the buckets changed since, so that the next digest
    /// rehashes only those.
    let digestChanges: DigestChanges

    /// Opens (creating when missing) the store at `path`, migrating it to `version` of `model`.
    ///
    /// No other process opens a store in the same folder meanwhile (``StoreOpenLock``), so
    /// processes started at once on a new device create and migrate the store once.
    ///
    /// - Parameter setUp: work that must be done before any other process uses the store (the
    ///   first launch's default data), run on the open store before the lock is released.
    /// - Throws: ``StoreError/newerModelVersion(store:app:path:)`` when the store was written by
    ///   a newer model version than `version`; ``StoreError/notAStore(path:reason:)`` when the
    ///   file is not an SQLite database; ``StoreOpenLockError/timedOut(path:)`` when another
    ///   process does not finish opening it; GRDB's errors when the file cannot be opened.
    public init(
        path: String,
        model: ModelDefinition,
        version: Int,
        peer: String = "local",
        clock: any WallClock = SystemWallClock(),
        ids: any IDGenerator = RandomIDGenerator(),
        logger: Logger = .silent,
        connections: StoreConnections = .pooled,
        setUp: (ObjectStore) throws -> Void = { _ in }
    ) throws {
        let modelVersion = try model.version(version)
        let lock = try StoreOpenLock(storePath: path)
        defer { lock.release() }
        let gate = UsageGate(path: path)
        let checkpointer = WALCheckpointer(path: path, gate: gate)
        let digestChanges = DigestChanges()
        func configuration(sharedMemory: Bool) -> Configuration {
            var configuration = Configuration()
            configuration.busyMode = .callback(StoreWriter.waiter(storePath: path, patience: Self.busyPatience))
            configuration.label = "store"
            configuration.prepareDatabase { db in
                // First of all: any statement that reads the schema (`cache_size`) opens the `-shm`
                // file (see ``StoreConnections/open(_:_:sharedMemory:)``).
                if !sharedMemory { try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
                try UniqueKey.register(on: db)
                db.add(function: TextFolding.sqlFunction)
                // After a checkpoint, the write-ahead log is cut back to this size instead of
                // staying as large as it ever grew.
                try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
                // A command reads the store where the kernel keeps its pages (mapped) instead of
                // copying each into SQLite's cache: `item ls` at 10k items read 1,100 pages with
                // as many `pread`s, into as many new pages of memory, each a page fault.
                if connections == .single { try db.execute(sql: "PRAGMA mmap_size = \(Self.commandMapBytes)") }
                // The writer's page cache holds an import's pages: with SQLite's 2 MB, a batch of
                // logs spilled its dirty pages into the write-ahead log and read them back. Pages
                // are allocated as they are used; readers keep the default.
                if !db.configuration.readonly {
                    try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
                    checkpointer.install(on: db)
                    digestChanges.install(on: db)
                }
            }
            return configuration
        }
        let database: any DatabaseWriter
        do {
            do {
                database = try connections.open(path, configuration(sharedMemory: true))
            } catch  where connections == .single && Self.isDiskFull(error, storePath: path) {
                // A full disk has no room for the write-ahead log's index: a command, which holds
                // the store for a moment, keeps it in its own memory, so that reads still work.
                database = try connections.open(path, configuration(sharedMemory: false), sharedMemory: false)
                logger.notice(
                    "the disk of \(path) is full: this command holds the store alone, its write-ahead index in memory")
            }
            // Acknowledged means on disk, whichever way the store is held: a commit syncs the
            // write-ahead log before it returns (GRDB's pool sets NORMAL, which leaves a commit to
            // the next checkpoint's sync; a checkpoint that a reader held back then left
            // acknowledged saves unsynced).
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw Self.translated(error, storePath: path)
        }

        let migrator = model.migrator(upTo: version)
        let isNew: Bool
        do {
            // One read: each is a transaction (and, the first, a reader connection opened).
            let (created, applied) = try database.read { db in
                (try !Self.hasTable(EngineTables.outbox, db), try Self.appliedMigrations(db))
            }
            isNew = created
            // A migration this build does not know: a newer model version wrote the store.
            if !applied.isSubset(of: migrator.migrations) {
                throw StoreError.newerModelVersion(store: Self.appliedModelVersion(applied), app: version, path: path)
            }
            // GRDB's migrator reads the same table again, in a write of its own, before it finds
            // nothing to do: asked only when a migration is missing.
            if !Set(migrator.migrations).isSubset(of: applied) { try migrator.migrate(database) }
            try UniqueKeyIndex.ensure(for: modelVersion.schema, in: database)
            try database.read { db in try digestChanges.readTables(schema: modelVersion.schema, db) }
        } catch {
            throw Self.translated(error, storePath: path)
        }

        self.path = path
        self.schema = modelVersion.schema
        self.isNew = isNew
        self.database = database
        self.connections = connections
        self.gate = gate
        self.checkpointer = checkpointer
        self.digestChanges = digestChanges
        self.peer = peer
        self.clock = clock
        self.ids = ids
        self.logger = logger
        if isNew {
            try write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('createdAtVersion', ?)",
                    arguments: [String(version)])
            }
            logger.info("created store \(path) at model version \(version)")
        }
        try setUp(self)
        // A new store's tables and first data go into the main file at once: the file
        // docs/sync.md names is the store, even copied on its own (best effort: a reader
        // elsewhere may hold the log back; SQLite's automatic checkpoints then catch up).
        if isNew { checkpoint() }
        OpenStores.add(self)
    }

    /// How long, in seconds, a write waits for another process's write to finish.
    static let busyPatience = 10

    /// How large the write-ahead log may grow before a save moves it into the store file.
    static let walSizeLimit = 4 << 20
    /// The writer connection's page cache, in KiB (SQLite's default is 2000).
    static let writerCacheKiB = 32 << 10
    /// How much of the store file a command's connection maps into memory (address space, not
    /// memory used): pages beyond it are read as before. A 10k-item store is ~10 MB.
    static let commandMapBytes = 1 << 30

    /// Moves what the write-ahead log holds into the store file and empties the log, when no
    /// other connection holds it back. Best effort: the data is safe either way.
    public func checkpoint() {
        _ = try? database.writeWithoutTransaction { db in
            // A background checkpoint under way would make this one fail at once; none starts
            // while this holds the writer.
            checkpointer.waitUntilIdle()
            return try db.checkpoint(.truncate)
        }
    }

    /// The checkpoint a closing store makes: as much as no reader holds back, at once. Every
    /// commit is already durable (`synchronous = FULL`), so nothing waits for it: a reader in
    /// another process (a running app, `cloud watch`) once made a command's close wait up to
    /// ten seconds in the busy handler, naming itself as the holder. The store file alone then
    /// holds the store only when no other process had it open.
    private static func checkpointWithoutWaiting(_ db: Database) {
        sqlite3_busy_handler(db.sqliteConnection, nil, nil)
        _ = try? db.checkpoint(.truncate)
    }

    /// Whether the store file has a table named `table`: one query of SQLite's own table.
    /// GRDB's `tableExists` reads the whole schema into a cache of its own to answer, which
    /// nothing after the open reads: 2M of `item list`'s 39M instructions, 1.2M of them saved.
    static func hasTable(_ table: String, _ db: Database) throws -> Bool {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
            arguments: [table]) ?? 0 > 0
    }

    /// The identifiers of the migrations the store at `db` has applied (none before the first),
    /// from the table GRDB's migrator keeps them in, read with SQLite's calls: the migrator's
    /// own read (`appliedIdentifiers`) makes a cursor of a generic type inside GRDB, which the
    /// Swift runtime checks against two protocols — two conformance walks at every open
    /// (docs/decisions/0176).
    static func appliedMigrations(_ db: Database) throws -> Set<String> {
        guard try hasTable("grdb_migrations", db) else { return [] }
        let statement = try db.cachedStatement(sql: "SELECT identifier FROM grdb_migrations")
        let rows = try Row.fetchCursor(statement)
        var identifiers: Set<String> = []
        while try rows.next() != nil {
            guard let text = sqlite3_column_text(statement.sqliteStatement, 0) else { continue }
            // Every byte, as GRDB reads it: an identifier with a NUL inside is not the one before it.
            let count = Int(sqlite3_column_bytes(statement.sqliteStatement, 0))
            identifiers.insert(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
        return identifiers
    }

    /// The highest model version among the `applied` migrations.
    static func appliedModelVersion(_ applied: Set<String>) -> Int {
        applied.compactMap { $0.hasPrefix("model-v") ? Int($0.dropFirst(7)) : nil }.max() ?? 0
    }

    // MARK: - Saving

    /// Runs `body` in one SQLite transaction and records what it changed.
    ///
    /// When `body` throws, nothing is written. When it changed anything, the transaction record
    /// is appended to the outbox in the same transaction.
    ///
    /// - Parameter author: a short label for the record ("item add", "import").
    /// - Returns: what `body` returned.
    public func save<T>(author: String, _ body: (SaveContext) throws -> T) throws -> T {
        try save(author: author, shipped: nil, body)
    }

    /// Saves objects shipped with the app (default data): like ``save(author:_:)``, but every
    /// property it writes carries `reading`, a fixed reading the app ships with, instead of one
    /// of this device's clock. Every device that inserts the same shipped objects (under IDs
    /// derived from them, ``GlobalID/derived(from:in:)``) then holds the same values with the
    /// same readings: one set of objects, and any edit, made later by a clock reading after
    /// them, wins over them.
    ///
    /// `body` may only insert: a shipped reading must never stand for a change of something
    /// the device holds. The device's clock does not follow `reading`.
    ///
    /// - Throws: ``StoreError/shippedSaveChanges(_:)`` when `body` updated or deleted an object
    ///   (nothing is written).
    public func saveShipped<T>(author: String, reading: HLC, _ body: (SaveContext) throws -> T) throws -> T {
        try save(author: author, shipped: reading, body)
    }

    private func save<T>(author: String, shipped: HLC?, _ body: (SaveContext) throws -> T) throws -> T {
        let (result, record, left) = try write { db in
            // A wall clock before 1970 or after 9999 still dates the save as peers accept.
            let saveClock = SaveClock(
                now: LocalClock.readable(clock.now()), peer: peer, shipped: shipped,
                remembered: rememberedSave, db: db)
            let context = SaveContext(db: db, schema: schema, ids: ids, clock: saveClock)
            let result = try body(context)
            let unstamped = context.recorder.record(
                transactionID: ids.next(), timestamp: context.now, author: author, clock: nil)
            guard !unstamped.isEmpty else {
                return (result, unstamped, (clock: HLC?, sequence: Int64, dataVersion: UInt32?)?.none)
            }
            let reading: HLC
            // The device's clock, read once for the inserts, the reading and the clock after it,
            // which the outbox row carries (a shipped save's too, unmoved: the last row's clock is
            // the device's); and the outbox's last number when the last save left it.
            let start = try saveClock.deviceClock()
            let stored = start.clock
            let current = shipped == nil ? LocalClock.trusted(stored, now: context.now) : nil
            if let shipped {
                guard unstamped.updated.isEmpty, unstamped.deleted.isEmpty else {
                    throw StoreError.shippedSaveChanges((unstamped.updated.map(\.object) + unstamped.deleted)[0])
                }
                reading = shipped
            } else {
                reading = try LocalClock.reading(
                    for: unstamped, now: context.now, peer: peer, current: current, schema: schema, db)
            }
            let record = unstamped.stamped(reading)
            try PropertyClocks.stamp(record, clock: reading, schema: schema, insertsWritten: context.insertWritten, db)
            let after =
                shipped == nil ? LocalClock.clock(stored: stored, after: reading, now: context.now, peer: peer) : stored
            let sequence = try Outbox.append(
                record, clock: after, after: start.lastSequence, modelVersion: schema.version, in: db)
            return (result, record, (after, sequence, start.dataVersion))
        }
        if let left {
            // Committed: the next save may take the device's clock and the outbox's number from here.
            rememberedSave.remember(left.clock, sequence: left.sequence, dataVersion: left.dataVersion)
            FaultInjection.crash(at: FaultInjection.afterCommit)
            saveObservers.notify(record)
            logger.debug(
                "saved \(author): \(record.inserted.count) inserted, \(record.updated.count) updated, \(record.deleted.count) deleted"
            )
        }
        return result
    }

    /// Calls `observer` after every save that changed something, once it is committed, on the
    /// saving thread. The sync engine exports from here.
    public func observeSaves(_ observer: @escaping (TransactionRecord) -> Void) {
        saveObservers.add(observer)
    }

    /// Closes the store's connections; the store is unusable afterwards. Needed before its file
    /// is moved or replaced.
    /// Waits for the reads and writes under way on other threads; those begun later fail with
    /// ``StoreError/closed(path:)``.
    /// Moves the write-ahead log into the store file first, so that the file alone is the store.
    public func close() throws {
        try gate.close {
            checkpointer.close()
            _ = database.writeWithoutTransaction { db in Self.checkpointWithoutWaiting(db) }
            try database.close()
        }
    }

    /// Runs `body` with a read-only view of the store.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try gate.use { try connections.read(database, body) }
        } catch {
            throw Self.translated(error, storePath: path)
        }
    }

    /// Runs `body` in a write transaction, outside the save API: for the engine's own tables
    /// (imports, exports, watermarks), never for objects, whose changes must be recorded.
    ///
    /// - Throws: ``StoreError/busy(path:holder:)`` naming the process that kept the store's write
    ///   lock for longer than ``busyPatience``; ``StoreError/diskFull(folder:)`` when the disk
    ///   had no room for the transaction (nothing of it was written).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            let (result, noted) = try gate.use {
                try database.write { db in try digestChanges.track(db, body) }
            }
            digestChanges.committed(noted)
            return result
        } catch {
            // Committed or not: the digest's next computation cannot tell, and reads it all.
            digestChanges.forget()
            throw Self.translated(error, storePath: path)
        }
    }

    /// Runs `body` in a write transaction whose commit does not wait for the disk: for what the
    /// cloud folder can give again after a power cut (an import, with the watermark that says
    /// what it applied; the remembered folder listings), never for a save or anything only this
    /// device knows.
    ///
    /// The commit is atomic and isolated as any other, and visible to every reader at once. It
    /// reaches the disk with the next synced commit (a save) or checkpoint:
    /// the write-ahead log is one file, synced up to its end, and replayed only up to the first
    /// frame that is missing, so no later commit survives a lost one. A power cut before then
    /// loses the transaction whole, and the next import applies those logs again.
    ///
    /// SQLite's `synchronous` is the connection's, and cannot change inside a transaction: it is
    /// `NORMAL` for this transaction only, on the writer this transaction holds, and `FULL` again
    /// before any other transaction can take the writer.
    public func writeUnsynced<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            let (result, noted) = try gate.use {
                try database.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                    let outcome = Result {
                        var result: (T, DigestChanges.Noted)?
                        try db.inTransaction {
                            result = try digestChanges.track(db, body)
                            return .commit
                        }
                        return result!
                    }
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    return try outcome.get()
                }
            }
            digestChanges.committed(noted)
            return result
        } catch {
            digestChanges.forget()
            throw Self.translated(error, storePath: path)
        }
    }

    /// Runs `body` outside any transaction (`VACUUM INTO`).
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try gate.use { try database.writeWithoutTransaction(body) }
        } catch {
            throw Self.translated(error, storePath: path)
        }
    }

    /// Whether `error` is SQLite's report of a full disk under the store at `path`.
    private static func isDiskFull(_ error: Error, storePath path: String) -> Bool {
        if case StoreError.diskFull? = translated(error, storePath: path) as? StoreError { return true }
        return false
    }

    /// SQLite's errors that a user can act on, as the store's own: a file that is not a
    /// database, a write lock held too long (naming its holder), a full disk (``DiskFull``).
    /// Any other error as it is.
    static func translated(_ error: Error, storePath path: String) -> Error {
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_NOTADB?: StoreError.notAStore(path: path, reason: "the file is not an SQLite database")
        case .SQLITE_BUSY?: StoreError.busy(path: path, holder: StoreWriter.describe(storePath: path))
        default: DiskFull.translated(error, storePath: path)
        }
    }

    // MARK: - Outbox and metadata

    /// The recorded transactions, oldest first.
    public func outbox() throws -> [TransactionRecord] {
        try read { db in try Outbox.all(db) }
    }

    /// A number that grows with every save and every imported batch, from any process: cheap
    /// to poll.
    public func changeToken() throws -> Int64 {
        try read { db in try Outbox.changeToken(db) }
    }

    /// The change token's parts: saves and imported batches.
    public func changeCounts() throws -> ChangeCounts {
        try read { db in try Outbox.changeCounts(db) }
    }

    /// Sets a local, never-synced fact about the store, outside any save.
    public func setMetadata(_ key: String, _ value: String) throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                arguments: [key, value])
        }
    }

    /// A local, never-synced fact about the store.
    public func metadata(_ key: String) throws -> String? {
        try read { db in
            try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [key])
        }
    }
}

extension SaveContext {
    /// A local, never-synced fact about the store, read in the save's transaction.
    public func metadata(_ key: String) throws -> String? {
        try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [key])
    }

    /// Sets a local, never-synced fact about the store, in the save's transaction.
    public func setMetadata(_ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)", arguments: [key, value])
    }
}
