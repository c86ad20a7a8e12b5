import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see either nothing or all of it: a temp file in the same
/// folder, fsync, rename (or link) into place, fsync of the folder.
public enum AtomicFile {
    /// Whether `name` is a temporary file of a write whose process is gone: `.<name>.<pid>.<uuid>.tmp`
    /// with a dead pid, or `.<name>.tmp` (what the `mid-log-write` fault leaves).
    public static func isAbandonedTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst().dropLast(4).split(separator: ".")
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 2]), pid > 0 else { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    public static func write(_ data: Data, to url: URL) throws {
        let temp = try writeTemp(data, beside: url)
        defer { unlink(temp.path) }  // when the rename failed; after it, the name is gone
        guard rename(temp.path, url.path) == 0 else {
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        syncFolder(of: url)
    }

    /// Writes the file only when there is none yet, even when other processes try at the same
    /// moment: exactly one of them makes it (a `link`, which never replaces a file).
    ///
    /// - Returns: whether this call made the file; when not, the file someone else made is
    ///   there, whole, and this one's `data` is dropped.
    public static func create(_ data: Data, at url: URL) throws -> Bool {
        let temp = try writeTemp(data, beside: url)
        defer { unlink(temp.path) }
        if link(temp.path, url.path) != 0 {
            if errno == EEXIST { return false }
            // A file system without hard links: a rename when the file is still missing,
            // which two processes at the same moment can both do.
            guard errno == EPERM || errno == EOPNOTSUPP, access(url.path, F_OK) != 0,
                  rename(temp.path, url.path) == 0 else {
                throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
        syncFolder(of: url)
        return true
    }

    /// A new hidden temp file beside `url` holding `data`, flushed to disk.
    private static func writeTemp(_ data: Data, beside url: URL) throws -> URL {
        let directory = url.deletingLastPathComponent()
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.unwritable(path: temp.path, reason: String(cString: strerror(errno))) }
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
                    throw FileError.unwritable(path: temp.path, reason: reason)
                }
                offset += written
            }
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            throw FileError.unwritable(path: temp.path, reason: String(cString: strerror(errno)))
        }
        ok = true
        return temp
    }

    private static func syncFolder(of url: URL) {
        let dirFD = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}
