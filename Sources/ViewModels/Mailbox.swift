import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Messages for the UI thread from other threads (the sync engine's): posted anywhere, taken
/// on the UI thread, which a wake-up pipe rouses from its wait. Nothing but the UI
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

    /// Waits up to `timeout` seconds for a message (for tests and commands without a terminal;
    /// the app waits on ``wake`` together with the keyboard). The seconds are the uptime's,
    /// which a wall clock set back does not stretch.
    public func wait(timeout: TimeInterval) -> [Message] {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        while true {
            let messages = take()
            let left = deadline - ProcessInfo.processInfo.systemUptime
            if !messages.isEmpty || left <= 0 { return messages }
            var descriptor = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(max(1, min(100, left * 1000))))
        }
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
