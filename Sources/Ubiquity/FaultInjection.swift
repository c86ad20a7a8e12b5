import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Crash points for the fault tests: when `GROCERY_DUDE_FAULT` names a point, the process kills
/// itself there with SIGKILL, as a power cut or `kill -9` would. Unset, it costs one lookup.
enum FaultInjection {
    /// After a save is committed, before its log is written.
    static let afterCommit = "after-commit"
    /// Half-way through writing a log's temp file.
    static let midLogWrite = "mid-log-write"

    private static let requested = ProcessInfo.processInfo.environment["GROCERY_DUDE_FAULT"]

    static func isRequested(_ point: String) -> Bool { requested == point }

    static func crash(at point: String) {
        guard isRequested(point) else { return }
        kill(getpid(), SIGKILL)
    }
}
