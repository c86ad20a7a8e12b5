import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A short exclusive claim on the folder of a store, held while one process opens the store:
/// creating its file, migrating it, and its first-launch setup (the default data). Processes
/// that start at once on a new device then make the store one after the other, and each later
/// one sees it made.
///
/// It is an `flock` on the folder itself, so it leaves no file behind, and it is released as
/// soon as the store is open (or when the process ends, however it ends): ordinary reads and
/// saves never wait for it, they share the store through SQLite's locking. Not the running
/// app's lock on its device, held for as long as the app runs.
final class StoreOpenLock {
    /// How long a process waits for another to open the store before giving up.
    static let patience: TimeInterval = 30

    private var fd: Int32

    /// Waits until no other process is opening a store in the folder of `storePath`, then
    /// holds the claim until ``release()``.
    ///
    /// Without a claim when the folder is missing (opening the store there fails anyway, and
    /// SQLite says why) or its file system has no locks.
    ///
    /// - Throws: ``StoreOpenLockError/timedOut(path:)`` when another process keeps opening
    ///   the store for longer than ``patience`` (it is stopped, or stuck).
    init(storePath: String) throws {
        let folder = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
        fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let deadline = Date().addingTimeInterval(Self.patience)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else {
                release()  // a file system without locks: opened as before
                return
            }
            guard Date() < deadline else {
                release()
                throw StoreOpenLockError.timedOut(path: storePath)
            }
            usleep(5_000)
        }
    }

    /// Lets the next process open the store. Safe to call more than once.
    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}

/// Why a store could not be opened at all.
public enum StoreOpenLockError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case timedOut(path: String)

    public var description: String {
        switch self {
        case .timedOut(let path):
            "another process has been opening the store \(path) for over \(Int(StoreOpenLock.patience)) seconds; try again when it is done"
        }
    }

    public var errorDescription: String? { description }
}
