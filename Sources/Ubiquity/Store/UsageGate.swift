import Foundation

/// Keeps a store open while any thread uses it: closing waits for the reads and writes under
/// way, and any begun after it fail with ``StoreError/closed(path:)``.
///
/// GRDB's `DatabasePool.close()` must not race with a read on another thread (SQLite is then
/// called on a freed connection). The app closes a store in a transition on the UI thread while
/// background work (deduplication, a merge, "sync now") may be reading it.
final class UsageGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var users = 0
    private var closed = false
    private let path: String

    init(path: String) { self.path = path }

    /// Runs `body` with the store kept open. Nested uses on one thread are fine.
    func use<T>(_ body: () throws -> T) throws -> T {
        condition.lock()
        guard !closed else {
            condition.unlock()
            throw StoreError.closed(path: path)
        }
        users += 1
        condition.unlock()
        defer {
            condition.lock()
            users -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Refuses new uses, waits for those under way, then runs `close`. If `close` fails, the
    /// store is usable again. Closing a closed store does nothing. Must not be called from
    /// inside ``use(_:)``.
    func close(_ close: () throws -> Void) throws {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return
        }
        closed = true
        while users > 0 { condition.wait() }
        condition.unlock()
        do {
            try close()
        } catch {
            condition.lock()
            closed = false
            condition.unlock()
            throw error
        }
    }
}
