import Foundation

/// The one place where tests wait: a condition looked at again and again until it holds, and
/// a test that fails, saying what it waited for and what it last saw, when it does not hold in
/// time. Tests never wait for time itself (a sleep that hopes the other side is done by then):
/// on a loaded machine the hope fails, on an idle one the sleep is wasted.
///
/// The deadline is read from the system's uptime, which a wall clock set back or moved by
/// `faketime` does not move.
public enum Poll {
    /// How long a wait lasts by default. Generous: a wait ends as soon as its condition holds,
    /// and the suite runs its tests side by side on a few cores, where one process can take
    /// seconds to start. How fast the app answers is the benchmarks' business.
    public static let defaultTimeout: TimeInterval = 60

    /// How often a condition is looked at by default.
    public static let defaultInterval: TimeInterval = 0.02

    /// Reads a value until `condition` accepts it, and returns it: again at once when `wakeup`
    /// is signalled (the source said it changed), else after `interval` seconds at the latest
    /// (a screen in tmux, a folder: sources that cannot say so).
    ///
    /// - Parameters:
    ///   - read: what to look at (a screen, a file, a process's output).
    ///   - describe: what was waited for, given the last value read: the failure's message.
    /// - Throws: ``PollTimeout`` after `timeout` seconds; what `read` or `condition` throw.
    @discardableResult
    public static func until<Value>(
        timeout: TimeInterval = defaultTimeout, every interval: TimeInterval = defaultInterval,
        wakingOn wakeup: Wakeup? = nil,
        reading read: () throws -> Value, _ describe: (Value) -> String, _ condition: (Value) throws -> Bool
    ) throws -> Value {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        let wakeup = wakeup ?? Wakeup()
        while true {
            let seen = wakeup.count
            let value = try read()
            if try condition(value) { return value }
            let now = ProcessInfo.processInfo.systemUptime
            guard now < deadline else { throw PollTimeout(timeout: timeout, waitedFor: describe(value)) }
            wakeup.wait(after: seen, untilUptime: min(deadline, now + interval))
        }
    }

    /// Looks at `condition` every `interval` seconds until it holds.
    ///
    /// - Parameter description: what was waited for, read when the wait fails (it may name a
    ///   value the condition last saw).
    /// - Throws: ``PollTimeout`` after `timeout` seconds; what `condition` throws.
    public static func until(
        timeout: TimeInterval = defaultTimeout, every interval: TimeInterval = defaultInterval,
        wakingOn wakeup: Wakeup? = nil, _ description: @autoclosure () -> String, _ condition: () throws -> Bool
    ) throws {
        try until(
            timeout: timeout, every: interval, wakingOn: wakeup, reading: condition, { _ in description() }
        ) { $0 }
    }
}

/// A condition a test waited for did not hold in time.
public struct PollTimeout: Error, CustomStringConvertible {
    public let timeout: TimeInterval
    /// What was waited for and what was last seen.
    public let waitedFor: String

    public var description: String { "still not so after \(timeout) s: \(waitedFor)" }
}
