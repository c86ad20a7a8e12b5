import Foundation

/// The stores this process has open, so that a command can close them all when it ends.
///
/// SQLite keeps recent commits in the write-ahead log (`-wal`) until a checkpoint moves them
/// into the store file. Closing a store checkpoints it (``ObjectStore/close()``), so that the
/// store file alone holds the data — copied on its own, backed up, or opened by a tool that
/// ignores the log. A command that ends without closing (a store held by its sync engine, a
/// thrown error) would leave the latest saves only in the log; ``closeAll()`` at the end of the
/// process prevents that.
public enum OpenStores {
    private final class WeakStore: @unchecked Sendable {
        weak var store: ObjectStore?
        init(_ store: ObjectStore) { self.store = store }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [WeakStore] = []

    static func add(_ store: ObjectStore) {
        lock.withLock {
            stores.removeAll { $0.store == nil }
            stores.append(WeakStore(store))
        }
    }

    /// Checkpoints and closes every store this process still has open. For the end of a
    /// process: the stores are unusable afterwards.
    public static func closeAll() {
        let open = lock.withLock {
            defer { stores = [] }
            return stores.compactMap(\.store)
        }
        for store in open { try? store.close() }
    }
}
