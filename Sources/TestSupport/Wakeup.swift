import Foundation

/// What a waiting test is told of the moment it happens — a line a process wrote, the process's
/// end — so that ``Poll/until(timeout:every:wakingOn:reading:_:_:)`` looks again at once
/// instead of at its next interval. A source that can tell when it changed signals one; the
/// interval is then only a ceiling, for a change that comes without a signal.
public final class Wakeup: @unchecked Sendable {
    private let condition = NSCondition()
    private var signals = 0

    public init() {}

    /// Wakes every wait under way and the next one that started before it.
    public func signal() {
        condition.lock()
        signals += 1
        condition.broadcast()
        condition.unlock()
    }

    /// How many signals so far: read before looking, so that a signal that comes between the
    /// look and the wait is not missed.
    var count: Int { condition.withLock { signals } }

    /// Returns once a signal after `seen` came, or at `limit` (uptime seconds) at the latest.
    func wait(after seen: Int, untilUptime limit: TimeInterval) {
        condition.lock()
        defer { condition.unlock() }
        while signals == seen {
            let left = limit - ProcessInfo.processInfo.systemUptime
            guard left > 0, condition.wait(until: Date(timeIntervalSinceNow: left)) else { return }
        }
    }
}
