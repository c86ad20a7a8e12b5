import Foundation
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
        guard fd >= 0 else { throw SandboxError.unwritable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readHolder(fd: fd)
            close(fd)
            throw SandboxError.deviceInUse(device: sandbox.device, pid: holder.pid, command: holder.command)
        }
        let text = "\(getpid()) \(command)\n"
        ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
        self.fd = fd
    }

    deinit {
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }

    private static func readHolder(fd: Int32) -> (pid: Int32, command: String) {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(fd, &buffer, buffer.count, 0)
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        let pid = parts.first.flatMap { Int32($0) } ?? 0
        let command = parts.count > 1 ? String(parts[1]) : "unknown command"
        return (pid, command)
    }
}
