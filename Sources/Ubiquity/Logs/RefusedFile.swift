import Foundation
import GRDB

/// A file of the cloud folder that this store refused: a log, baseline, blob or epoch marker
/// that is damaged, too large, not what its name says, or holds a change that breaks the
/// schema's rules. A refused log holds its peer at that log (its later logs wait; every other
/// peer goes on) until the file changes, a baseline covers it, or the user releases it.
///
/// Remembered by path, size and modification time: the same file is not read again by every
/// command; a file that changes (a copy that finished) is read again.
public struct RefusedFile: Error, Equatable, Sendable {
    public enum Kind: String, Sendable {
        case log, baseline, marker, blob
        /// A folder of the cloud folder that cannot be listed: what it holds cannot be seen.
        case folder
    }

    /// Relative to the cloud folder.
    public var path: String
    public var kind: Kind
    /// The peer whose folder holds it (for a marker, the name's epoch is in `seq`).
    public var peer: String
    /// The log's sequence number, the baseline's number, the marker's epoch.
    public var seq: Int64
    /// The writing device's name, when the header could be read.
    public var device: String?
    public var reason: String
    public var size: Int64
    public var modified: Double
    public var refusedAt: Date

    /// Whether the file is still the one refused: same size and modification time. A file
    /// without a stamp (a link, a folder, gone) never is: it is looked at again.
    func isUnchanged(_ stamp: FileStamp) -> Bool {
        stamp.size >= 0 && size == stamp.size && modified == stamp.modified
    }

    /// "log 17 from device "phone" (peer 1b2c…): item name: it is blank".
    public var summary: String {
        let who = device.map { "device \($0.debugDescription) (peer \(peer))" } ?? "peer \(peer)"
        switch kind {
        case .log: return "log \(seq) from \(who): \(reason)"
        case .baseline: return "baseline \(seq) from \(who): \(reason)"
        case .marker: return "epoch marker \(path): \(reason)"
        case .blob: return "blob \(path): \(reason)"
        case .folder: return "folder \(path): \(reason)"
        }
    }
}

/// A file's identity for remembering refusals: its size and modification time.
struct FileStamp: Equatable {
    var size: Int64
    var modified: Double

    /// Whether anything is at the path, a dangling link included.
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    /// The stamp of a regular file (not following a link), or why it is not one.
    static func of(_ url: URL) -> Result<FileStamp, LogFileError> {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(
                (info.st_mode & S_IFMT) == S_IFLNK
                    ? .notARegularFile("a symbolic link") : .notARegularFile("a folder or device"))
        }
        return .success(
            FileStamp(
                size: Int64(info.st_size),
                modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
    }
}

/// The table of refused files.
enum RefusedFiles {
    static func record(_ file: RefusedFile, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO \(EngineTables.refusedFile)
                (path, kind, peer, seq, device, reason, size, mtime, refusedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                file.path, file.kind.rawValue, file.peer, file.seq, file.device, file.reason,
                file.size, file.modified, file.refusedAt.timeIntervalSince1970,
            ])
    }

    static func forget(_ path: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(EngineTables.refusedFile) WHERE path = ?", arguments: [path])
    }

    static func all(_ db: Database) throws -> [RefusedFile] {
        try fetch(db, "ORDER BY refusedAt, path", [])
    }

    private static func fetch(_ db: Database, _ clause: String, _ arguments: StatementArguments) throws -> [RefusedFile]
    {
        // Read at every import round: through the statement cache.
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT path, kind, peer, seq, device, reason, size, mtime, refusedAt FROM \(EngineTables.refusedFile) \(clause)
                    """), arguments: arguments
        ).map { row in
            RefusedFile(
                path: row[0], kind: RefusedFile.Kind(rawValue: row[1]) ?? .log, peer: row[2], seq: row[3],
                device: row[4], reason: row[5], size: row[6], modified: row[7],
                refusedAt: Date(timeIntervalSince1970: row[8]))
        }
    }
}
