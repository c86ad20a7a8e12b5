import Foundation

/// Messages for the UI thread from other threads (the sync engine's): posted anywhere, taken
/// on the UI thread, which a wake-up pipe rouses from its wait (DESIGN §6). Nothing but the UI
/// thread touches the view model or curses.
public final class Mailbox<Message>: @unchecked Sendable {
    public let wake = WakePipe()
    private let lock = NSLock()
    private var messages: [Message] = []

    public init() {}

    /// From any thread.
    public func post(_ message: Message) {
        lock.withLock { messages.append(message) }
        wake.wake()
    }

    /// On the UI thread: everything posted so far, oldest first.
    public func take() -> [Message] {
        wake.drain()
        return lock.withLock {
            defer { messages.removeAll() }
            return messages
        }
    }
}

/// What the sync engine tells the full-screen app.
public enum SyncEvent: Sendable, Equatable {
    /// An import changed `count` objects, from these devices.
    case imported(count: Int, devices: [String])
    /// A gap, a rejected file, a failed export: worth a line on the status bar.
    case problem(String)

    /// The status line's words: "3 changes from kitchen".
    public var message: String {
        switch self {
        case .imported(let count, let devices):
            let from = devices.isEmpty ? "" : " from " + devices.sorted().joined(separator: ", ")
            return "\(count) change\(count == 1 ? "" : "s")\(from)"
        case .problem(let text):
            return text
        }
    }
}
