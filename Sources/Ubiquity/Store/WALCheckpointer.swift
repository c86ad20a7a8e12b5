import Foundation
import GRDB
import GRDBSQLite
import TextAndFiles

/// Moves a store's write-ahead log into the store file in the background, instead of in the
/// commit that filled it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1000 pages: it
/// writes the pages back and syncs the store file, 30–60 ms here, and the save (or import)
/// returns only then — so the export that makes the save visible to other peers waited, once
/// every 60 saves or so. With four peers saving 100 times a second, those waits were the whole
/// of the 99th percentile of propagation (p99 34–54 ms; without them 9 ms).
///
/// So the store's writer connection has a WAL hook instead of the automatic checkpoint: when a
/// commit leaves ``threshold`` pages or more in the log, a passive checkpoint is started on a
/// queue of its own, through a connection of its own — it never waits for a reader or a writer,
/// and no save waits for it. Should the log still reach ``inlineLimit`` pages (the background
/// checkpoint failed or cannot keep up), the commit checkpoints itself, as SQLite would.
final class WALCheckpointer: @unchecked Sendable {
    /// The log's size in pages that starts a checkpoint: a quarter of SQLite's own default.
    /// Smaller checkpoints, more often: a checkpoint's sync of the store file slows every other
    /// sync on the disk meanwhile, and at 1000 pages it still cost the saves under way 40–50 ms
    /// (p99 17–22 ms); at 250, p99 10–14 ms.
    static let threshold: Int32 = 250
    /// The log's size in pages at which a commit checkpoints itself after all. Commits back to
    /// back outrun the background checkpoint (the log starts over only once a checkpoint caught
    /// up with it), so the log grows past the threshold while they last, to this at most.
    static let inlineLimit: Int32 = 4000

    private let path: String
    private let gate: UsageGate
    private let queue = DispatchQueue(label: "store.checkpoint")
    private let checkpoints: CoalescedWork
    /// Used on `queue` only (and by ``close()`` once no checkpoint runs).
    private var connection: OpaquePointer?
    private let key: Int

    /// - Parameter gate: the store's; a checkpoint runs as a use of the store, so that closing
    ///   it waits for the checkpoint under way, and none starts after.
    init(path: String, gate: UsageGate) {
        self.path = path
        self.gate = gate
        checkpoints = CoalescedWork(queue: queue)
        key = Self.registry.newKey()
        Self.registry.add(self, key: key)
    }

    deinit {
        Self.registry.remove(key)
        if let connection { sqlite3_close_v2(connection) }
    }

    /// Puts the hook on the store's writer connection (it replaces SQLite's automatic checkpoint).
    func install(on db: Database) {
        // The hook's context is the registry key, not a pointer: a connection that outlives
        // this object calls a hook that finds nothing, instead of freed memory.
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, connection, _, pages in
                if pages >= WALCheckpointer.inlineLimit {
                    sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                } else {
                    WALCheckpointer.registry.find(Int(bitPattern: context))?.logGrew(to: pages)
                }
                return SQLITE_OK
            }, UnsafeMutableRawPointer(bitPattern: key))
    }

    /// The log's size in pages when a checkpoint was last asked for; 0 once the log started over.
    private var askedAt: Int32 = 0
    /// How many checkpoints were asked for (tests read it).
    private(set) var asked = 0
    private let askedLock = NSLock()

    /// Asks for a checkpoint when the log grew by ``threshold`` pages since the last one was asked
    /// for (or since it started over), not at every commit past the threshold. Commits that come
    /// faster than a checkpoint keep the log from starting over (it does only when a checkpoint
    /// caught up before the next commit), and each of them then asked for one: an importer
    /// committing a live round every few milliseconds ran a checkpoint, two syncs, every few
    /// commits — 300–400 syncs in a run of the latency bench, more than any writer's saves made,
    /// slowing every other sync on the disk. The store file takes the same pages in fewer, larger
    /// checkpoints.
    private func logGrew(to pages: Int32) {
        let due = askedLock.withLock {
            if pages < askedAt { askedAt = 0 }
            guard pages - askedAt >= Self.threshold else { return false }
            askedAt = pages
            asked += 1
            return true
        }
        if due { schedule() }
    }

    /// Starts a checkpoint in the background, unless one is waiting to run already.
    private func schedule() {
        checkpoints.request { [self] in _ = try? gate.use { checkpoint() } }
    }

    /// A passive checkpoint through this object's connection, opened the first time. Best
    /// effort: the log stays whole when it fails, and the next commit past the threshold tries again.
    private func checkpoint() {
        if connection == nil {
            var opened: OpaquePointer?
            guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                sqlite3_close_v2(opened)
                return
            }
            // A connection learns that the store is in WAL mode when it first reads it; until
            // then a checkpoint does nothing.
            guard sqlite3_exec(opened, "PRAGMA schema_version", nil, nil, nil) == SQLITE_OK else {
                sqlite3_close_v2(opened)
                return
            }
            connection = opened
        }
        sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Returns once the checkpoint under way, if any, is done.
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Closes the connection (the store is closing: no checkpoint runs, none will start).
    func close() {
        queue.sync {
            if let connection { sqlite3_close_v2(connection) }
            connection = nil
        }
    }

    // MARK: - Registry

    /// The checkpointers alive, by key, for the hook's C callback.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 1
        private var checkpointers: [Int: Weak] = [:]

        private struct Weak {
            weak var checkpointer: WALCheckpointer?
        }

        func newKey() -> Int {
            lock.withLock {
                defer { next += 1 }
                return next
            }
        }

        func add(_ checkpointer: WALCheckpointer, key: Int) {
            lock.withLock { checkpointers[key] = Weak(checkpointer: checkpointer) }
        }

        func remove(_ key: Int) {
            lock.withLock { _ = checkpointers.removeValue(forKey: key) }
        }

        func find(_ key: Int) -> WALCheckpointer? {
            lock.withLock { checkpointers[key]?.checkpointer }
        }
    }

    private static let registry = Registry()
}
