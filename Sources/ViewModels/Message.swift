import Foundation

/// A line for the message line ("Listed Milk", "3 changes from kitchen"), stamped when it was
/// made. A message belongs to that moment: the newest one shows, for a few seconds from when it
/// was made, and once gone it never comes back (docs/decisions/0060).
public struct Message: Equatable, Sendable {
    public let text: String
    /// The order messages were made in, across the whole app: a larger one is newer.
    public let serial: Int
    /// When it was made, in seconds of ``now``.
    public let made: TimeInterval

    public init(_ text: String, made: TimeInterval = Message.now) {
        self.text = text
        self.made = made
        serial = Self.serials.next()
    }

    /// A clock that never goes back (the system's uptime): a wall clock set back would keep a
    /// message up.
    public static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }

    /// The newest of some messages.
    public static func newest(_ messages: Message?...) -> Message? {
        messages.compactMap { $0 }.max { $0.serial < $1.serial }
    }

    private static let serials = Serials()

    private final class Serials: @unchecked Sendable {
        private let lock = NSLock()
        private var last = 0

        func next() -> Int {
            lock.withLock {
                last += 1
                return last
            }
        }
    }
}
