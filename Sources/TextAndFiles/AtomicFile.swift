import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a file so that readers see either nothing or all of it: a temp file in the same
/// folder (a file with no name, where it can: ``create(_:at:)``), fsync, rename (or link) into
/// place, fsync of the folder.
public enum AtomicFile {
    /// Whether `name` is a temporary file of a write whose process is gone: `.<name>.<pid>.<uuid>.tmp`
    /// with a dead pid, or `.<name>.tmp` (what the `mid-log-write` fault leaves).
    public static func isAbandonedTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst().dropLast(4).split(separator: ".")
        // `<target>.<pid>.<uuid>`: a target without an extension makes three parts, not four.
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid > 0 else { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    public static func write(_ data: Data, to url: URL) throws {
        let temp = try writeTemp(data, beside: url)
        defer { unlink(temp.path) }  // when the rename failed; after it, the name is gone
        guard rename(temp.path, url.path) == 0 else {
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        syncFolder(url.deletingLastPathComponent().path)
    }

    /// Writes the file only when there is none yet, even when other processes try at the same
    /// moment: exactly one of them makes it (a `link`, which never replaces a file).
    ///
    /// Where the file system can, the file is written with no name at all (`O_TMPFILE`) and
    /// linked into place whole: no temporary name shows in the folder (for a file-sync engine
    /// to pick up), a crash leaves nothing behind, and no file is deleted after each write (on
    /// ext4 without a journal, the kernel makes every new file look past each inode deleted in
    /// the last minute or more). Elsewhere, a hidden temporary file beside it, linked, then removed.
    ///
    /// - Returns: whether this call made the file; when not, the file someone else made is
    ///   there, whole, and this one's `data` is dropped.
    public static func create(_ data: Data, at url: URL) throws -> Bool {
        if let made = try createUnnamed(data, at: url) { return made }
        return try createThroughTemporary(data, at: url)
    }

    /// ``create(_:at:)`` through a hidden temporary file beside it, linked into place, then removed.
    static func createThroughTemporary(_ data: Data, at url: URL) throws -> Bool {
        let temp = try writeTemp(data, beside: url)
        defer { unlink(temp.path) }
        if link(temp.path, url.path) != 0 {
            if errno == EEXIST { return false }
            // A file system without hard links: a rename when the file is still missing,
            // which two processes at the same moment can both do.
            guard errno == EPERM || errno == EOPNOTSUPP, access(url.path, F_OK) != 0,
                rename(temp.path, url.path) == 0
            else {
                throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
            }
        }
        syncFolder(url.deletingLastPathComponent().path)
        return true
    }

    /// `O_TMPFILE`, which Glibc's Swift overlay does not bring (a macro of two flags); its
    /// value differs on a few architectures, where files are made the other way.
    #if os(Linux) && (arch(x86_64) || arch(arm64))
        private static let unnamedFileFlags: Int32? = 0o20000000 | O_DIRECTORY
    #else
        private static let unnamedFileFlags: Int32? = nil
    #endif

    /// ``create(_:at:)`` with a file that has no name until it is whole.
    ///
    /// - Parameter descriptors: where this process's open files have names (tests name a
    ///   folder that is not there, as a process without `/proc` finds).
    /// - Returns: whether this call made the file; nil when the file system (or a missing
    ///   `/proc`) cannot do it this way, and nothing was written.
    static func createUnnamed(_ data: Data, at url: URL, descriptors: String = "/proc/self/fd") throws -> Bool? {
        guard let flags = unnamedFileFlags else { return nil }
        let folder = url.deletingLastPathComponent().path
        var fd = open(folder, O_WRONLY | O_CLOEXEC | flags, 0o644)
        guard fd >= 0 else {
            // EOPNOTSUPP: a file system without unnamed files; EISDIR or EINVAL: a kernel
            // without them. Anything else (a missing folder, no permission) is told as it is.
            if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { return nil }
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { if fd >= 0 { close(fd) } }
        try writeAll(data, to: fd, path: url.path)
        guard fsync(fd) == 0 else {
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
        // Linked through /proc: `AT_EMPTY_PATH` would need a privilege.
        if linkat(AT_FDCWD, "\(descriptors)/\(fd)", AT_FDCWD, url.path, AT_SYMLINK_FOLLOW) != 0 {
            let failure = errno
            if failure == EEXIST { return false }
            // A full, read-only or failing disk, or the folder gone: the other way would be
            // refused the same. Anything else — no /proc (or one a sandbox hides), a file system
            // without hard links — is this way failing here, with nothing published yet.
            let folderGone = failure == ENOENT && access(folder, F_OK) != 0
            guard [ENOSPC, EDQUOT, EROFS, EIO].contains(failure) || folderGone else { return nil }
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(failure)))
        }
        // Closed before the folder's sync, not after: a watcher of the folder hears of the close
        // (`IN_CLOSE_WRITE`) with the link (`IN_CREATE`), in one wake-up, instead of waking a
        // second time a sync later to find nothing new.
        close(fd)
        fd = -1
        syncFolder(folder)
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
        do {
            try writeAll(data, to: fd, path: temp.path)
        } catch {
            close(fd)
            throw error
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            throw FileError.unwritable(path: temp.path, reason: String(cString: strerror(errno)))
        }
        ok = true
        return temp
    }

    /// Writes all of `data` at the file's offset, going on after interruptions.
    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileError.unwritable(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }

    private static func syncFolder(_ folder: String) {
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}
