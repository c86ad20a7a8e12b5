import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes the UI thread from another thread: the UI waits on this pipe and on the keyboard at
/// once. Writing never blocks; several wakes before the UI looks count as one.
public final class WakePipe: @unchecked Sendable {
    private var fds: [Int32] = [-1, -1]

    public init() {
        precondition(pipe(&fds) == 0, "cannot create a pipe")
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        close(fds[0])
        close(fds[1])
    }

    /// The end the UI thread polls.
    public var readFD: Int32 { fds[0] }

    /// Called from any thread.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
    }

    /// Empties the pipe; returns whether anything was in it.
    @discardableResult
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(fds[0], &buffer, buffer.count) > 0 { any = true }
        return any
    }
}
