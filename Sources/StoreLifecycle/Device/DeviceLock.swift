import Foundation
import TextAndFiles
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive claim on a device, held by the running app for as long as it runs, so that two
/// apps never act as the same peer at once. Released when the process ends, however it ends
/// (it is an `flock`).
///
/// One-shot commands (`item add`, …) do not take it: they share the store safely through
/// SQLite's locking, and the running app sees their saves.
public final class DeviceLock {
    private let fd: Int32

    /// Takes the lock, or throws ``SandboxError/deviceInUse(device:pid:command:)`` naming the
    /// process that holds it.
    public init(sandbox: DeviceSandbox, command: String) throws {
        let path = sandbox.lockFileURL.path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.unwritable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = ProcessHolder.read(fd: fd)
            close(fd)
            throw SandboxError.deviceInUse(device: sandbox.device, pid: holder.pid, command: holder.command)
        }
        ProcessHolder.write(fd: fd, command: command)
        self.fd = fd
    }

    /// Who holds the device's lock now, as "grocery-dude tui (pid 123)"; `nil` when nobody does.
    public static func holder(of sandbox: DeviceSandbox) -> String? {
        let fd = open(sandbox.lockFileURL.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A shared lock is refused while the holder's exclusive one stands.
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        let holder = ProcessHolder.read(fd: fd)
        // Between another process's lock and its writing who it is, the file is empty.
        guard holder.pid > 0 else { return nil }
        return "\(holder.command) (pid \(holder.pid))"
    }

    deinit {
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}
