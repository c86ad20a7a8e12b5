import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TEMPORARY latency instrumentation (not to be committed to main): with `GD_TRACE_DIR` set,
/// each process appends "<time> <event>" lines to a file of its own in that folder.
public enum TraceMark {
    nonisolated(unsafe) static let fd: Int32 = {
        guard let dir = ProcessInfo.processInfo.environment["GD_TRACE_DIR"] else { return -1 }
        return open("\(dir)/trace-\(getpid()).txt", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }()

    public static var isOn: Bool { fd >= 0 }

    public static func mark(_ event: @autoclosure () -> String) {
        guard fd >= 0 else { return }
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let line = String(format: "%d.%09d ", spec.tv_sec, spec.tv_nsec) + event() + "\n"
        var bytes = Array(line.utf8)
        _ = Glibc.write(fd, &bytes, bytes.count)
    }
}
