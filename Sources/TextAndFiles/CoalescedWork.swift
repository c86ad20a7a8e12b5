import Foundation

/// Work run on a queue when asked for, once for all the requests made before it starts: a run
/// asked for while one waits to start is that run. One may wait behind the one under way, so
/// that a request made during a run is never lost.
public final class CoalescedWork: @unchecked Sendable {
    private let queue: DispatchQueue
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var isScheduled = false

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs `work` on the queue, unless a run asked for earlier has not started yet (it does the
    /// same work, later than this request).
    public func request(_ work: @escaping @Sendable () -> Void) {
        let isNew = lock.withLock {
            defer { isScheduled = true }
            return !isScheduled
        }
        guard isNew else { return }
        queue.async { [self] in
            lock.withLock { isScheduled = false }
            work()
        }
    }
}
