import Foundation

#if canImport(Glibc)
    import Glibc
    import TextAndFiles
#endif

/// The claim of one exporter on a store: the thread or process that numbers and writes this
/// device's next logs. Held while logs are written to the cloud folder, which may be slow or
/// hang (a network mount); SQLite's write lock is not held meanwhile, so saves go on.
///
/// An `flock` on `<store>.export-lock`, which also names its holder (pid and command) for the
/// others' messages. Released when the exporter is done or its process ends, however it ends.
final class ExportLock {
    /// How long an exporter waits for another before leaving its saves to it: the holder
    /// exports every save waiting in the outbox before it lets go, this one's too.
    static let patience: TimeInterval = 2

    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// The lock file of the store at `storePath`.
    static func url(storePath: String) -> URL { URL(fileURLWithPath: storePath + ".export-lock") }

    /// Takes the claim, waiting up to `patience` for another exporter.
    ///
    /// - Throws: ``CloudError/exportInProgress(pid:command:)`` naming the holder when it keeps
    ///   the claim; `unwritable` when the lock file cannot be made.
    static func acquire(storePath: String, patience: TimeInterval = patience) throws -> ExportLock {
        let path = url(storePath: storePath).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.unwritable(path: path, reason: String(cString: strerror(errno))) }
        let deadline = Date().addingTimeInterval(patience)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { break }  // a file system without locks: as before
            guard Date() < deadline else {
                let holder = ProcessHolder.read(fd: fd)
                close(fd)
                throw CloudError.exportInProgress(pid: holder.pid, command: holder.command)
            }
            usleep(2_000)
        }
        ProcessHolder.write(fd: fd)
        return ExportLock(fd: fd)
    }

    func release() {
        guard fd >= 0 else { return }
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
