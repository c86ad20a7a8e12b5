import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Crash points for the fault tests: when the environment variable the app names
/// (``readRequest(fromEnvironmentVariable:)``) names a point, the process kills itself there
/// with SIGKILL, as a power cut or `kill -9` would. Unset, it costs one lookup.
public enum FaultInjection {
    /// After a save is committed, before its log is written.
    static let afterCommit = "after-commit"
    /// Half-way through writing a log's temp file.
    static let midLogWrite = "mid-log-write"
    /// Just before a log is written to the cloud folder: the process stops there (SIGSTOP), as
    /// one whose network mount hangs would, until it is sent SIGCONT.
    static let beforeLogWrite = "before-log-write"
    /// Inside an import's transaction, once its logs are applied, before it commits.
    static let midImport = "mid-import"
    /// Once an import's transaction is committed (not synced), before the round goes on.
    static let afterImport = "after-import"
    /// Half-way through deleting the older epochs' files in a start over.
    public static let midStartOver = "mid-start-over"
    /// After the first batch of a seed is committed, before the rest.
    public static let midSeed = "mid-seed"
    /// After a seeded store's main file is removed, before its `-wal` and `-shm`.
    public static let midSeedRemoval = "mid-seed-removal"

    /// The full-screen app, after its first frame: a crash of the program itself (a trap, as a
    /// failed precondition makes), not a kill, so that its crash handler runs.
    public static let appTrap = "app-trap"

    /// The point asked for, read once at launch by ``readRequest(fromEnvironmentVariable:)``.
    nonisolated(unsafe) private static var requested: String?

    /// Reads which point is requested from the environment variable `name` (the app's own,
    /// which the engine does not know). Called once at launch, before any store is opened.
    public static func readRequest(fromEnvironmentVariable name: String) {
        // `getenv`, not `ProcessInfo.environment`: that builds a dictionary of every variable.
        requested = getenv(name).map { String(cString: $0) }
    }

    public static func isRequested(_ point: String) -> Bool { requested == point }

    /// Stops the process at `point` when requested, as a hung system call would: the first
    /// time the process gets there.
    static func stop(at point: String) {
        guard isRequested(point),
            stoppedLock.withLock({
                defer { stopped = true }
                return !stopped
            })
        else { return }
        kill(getpid(), SIGSTOP)
    }

    private static let stoppedLock = NSLock()
    nonisolated(unsafe) private static var stopped = false

    public static func crash(at point: String) {
        guard isRequested(point) else { return }
        kill(getpid(), SIGKILL)
    }
}
