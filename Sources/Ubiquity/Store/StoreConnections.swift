import GRDB

/// How a process holds a store open: a writer with readers beside it, or one connection.
public enum StoreConnections: Sendable {
    /// A writer connection and reader connections (GRDB's `DatabasePool`): a read runs while
    /// another thread writes. For processes that live on, the app and `cloud watch`.
    case pooled
    /// One connection for reads and writes (GRDB's `DatabaseQueue`): for a command that opens
    /// the store, does one thing and quits. It opens one connection instead of two (each sets
    /// itself up and reads the schema), and writes nothing to open: `DatabasePool` makes sure
    /// the write-ahead log is not empty by creating and dropping a table, a write and a schema
    /// change (which every other connection then reads again) at every command, since the log
    /// is removed when the last connection closes. Reads on it see the store as committed, or,
    /// inside a write, as that write left it so far.
    case single

    /// Opens the store file at `path` this way.
    ///
    /// - Parameter sharedMemory: `false` opens one connection, whose configuration must set
    ///   SQLite's exclusive locking mode before anything reads the store: it then keeps the
    ///   write-ahead log's index in its own memory instead of the `-shm` file, for a disk too
    ///   full for that file's 32 KiB, which even a read needs. The connection holds the store
    ///   alone until it closes: other processes wait for it.
    func open(_ path: String, _ configuration: Configuration, sharedMemory: Bool = true) throws -> any DatabaseWriter {
        switch self {
        case .pooled where sharedMemory:
            return try DatabasePool(path: path, configuration: configuration)
        case .pooled, .single:
            var configuration = configuration
            configuration.prepareDatabase { db in
                // The write-ahead log, as `DatabasePool` sets it (kept in the file, so that other
                // processes' pools and this connection agree). Its durability is set by
                // ``ObjectStore`` for both ways of holding a store.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            return try DatabaseQueue(path: path, configuration: configuration)
        }
    }

    /// Runs `body` with a read-only view of the store opened this way.
    func read<T>(_ writer: any DatabaseWriter, _ body: (Database) throws -> T) throws -> T {
        switch self {
        case .pooled:
            return try writer.read(body)
        case .single:
            // Reentrant: a read made inside a write of this process runs in it, rather than
            // waiting for itself (`DatabaseQueue.read` would stop the process).
            return try writer.unsafeReentrantRead { db in
                try db.readOnly {
                    guard !db.isInsideTransaction else { return try body(db) }
                    var result: T?
                    try db.inTransaction(.deferred) {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
        }
    }
}
