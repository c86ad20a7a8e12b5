import Foundation
import GRDB

/// A full disk told apart from SQLite's other errors, so that a user reads "the disk that holds
/// … is full" rather than "SQLite error 10: disk I/O error" (which sounds like a failing disk or
/// a damaged store).
///
/// SQLite reports a write that found no space as `SQLITE_FULL`. Growing the shared-memory index
/// of the write-ahead log (the `-shm` file, which even a read may grow) fails as an I/O error,
/// `SQLITE_IOERR_SHMSIZE`, without saying why: an I/O error is taken for a full disk when the
/// disk has less than ``nearlyFull`` bytes left at that moment. Either way SQLite rolled the
/// transaction back: nothing was changed.
enum DiskFull {
    /// The free space below which an I/O error is put down to a full disk: more than SQLite
    /// needs to grow the index (32 KiB) or write a transaction of a few pages, far less than a
    /// disk that merely failed would typically have left.
    static let nearlyFull: UInt64 = 1 << 20

    /// The bytes an unprivileged process may still write on the disk that holds `path`.
    static func freeBytes(at path: String) -> UInt64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
    }

    /// `error` as ``StoreError/diskFull(folder:)`` when it is SQLite's report of a full disk
    /// under the store at `storePath`; otherwise `error` itself.
    static func translated(_ error: Error, storePath: String, freeBytes: (String) -> UInt64? = freeBytes(at:)) -> Error
    {
        guard let error = error as? DatabaseError else { return error }
        let folder = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
        switch error.resultCode {
        case .SQLITE_FULL:
            return StoreError.diskFull(folder: folder)
        case .SQLITE_IOERR:
            guard let free = freeBytes(folder), free < nearlyFull else { return error }
            return StoreError.diskFull(folder: folder)
        default:
            return error
        }
    }
}
