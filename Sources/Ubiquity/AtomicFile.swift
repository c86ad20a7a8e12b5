import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see either nothing or all of it: a temp file in the same
/// folder, fsync, rename into place, fsync of the folder.
public enum AtomicFile {
    /// Whether `name` is a temporary file of a write whose process is gone: `.<name>.<pid>.<uuid>.tmp`
    /// with a dead pid, or `.<name>.tmp` (what the `mid-log-write` fault leaves).
    static func isAbandonedTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst().dropLast(4).split(separator: ".")
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 2]), pid > 0 else { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SandboxError.unwritable(path: temp.path, reason: String(cString: strerror(errno))) }
        var ok = false
        defer {
            if !ok { unlink(temp.path) }
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    throw SandboxError.unwritable(path: temp.path, reason: reason)
                }
                offset += written
            }
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            throw SandboxError.unwritable(path: temp.path, reason: String(cString: strerror(errno)))
        }
        guard rename(temp.path, url.path) == 0 else {
            throw SandboxError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        ok = true
        let dirFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}
