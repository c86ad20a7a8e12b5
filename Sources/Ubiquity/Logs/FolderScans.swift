import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// A folder's identity and the times of its last changes, from one `stat`.
struct FolderStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    /// Nanoseconds since 1970.
    var modified: Int64
    var changed: Int64

    /// The stamp of the folder at `path` (following a link), or nil when it is not a folder
    /// or cannot be looked at.
    static func of(_ path: String) -> FolderStamp? { of(path, in: AT_FDCWD) }

    /// The stamp of the folder `name` in the open folder `parent` (no walk down the whole path).
    static func of(_ name: String, in parent: Int32) -> FolderStamp? {
        name.withCString { of(cName: $0, in: parent) }
    }

    /// The same, of a name given as a C string.
    static func of(cName name: UnsafePointer<CChar>, in parent: Int32) -> FolderStamp? {
        var info = stat()
        guard fstatat(parent, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return FolderStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}

/// One remembered listing of a peer folder.
struct FolderScan: Equatable, Sendable {
    var stamp: FolderStamp
    /// The user (effective uid) who listed it.
    var user: UInt32
    /// Logs: the newest log present. Baselines: the newest baseline present, all of them
    /// merged. Refusal notices: the newest log of this peer refused in it (0: none).
    var newest: Int64
    /// Seconds since 1970, read before the folder's stamp.
    var scannedAt: Double
    /// Logs: the peer's watermark, read with the listing (not stored with it).
    var applied: Int64 = 0

    /// Whether the folder's times were old enough at the listing that any later change to it
    /// shows in its stamp.
    var isSettled: Bool {
        // In Double: a clock set past the year 2262 has no Int64 count of nanoseconds.
        let limit = (scannedAt - FolderScans.racyWindow) * 1e9
        return Double(stamp.modified) < limit && Double(stamp.changed) < limit
    }

    /// How it is stored, one blob (read for every peer at every import: one column, not seven):
    /// device, inode, mtime, ctime (8 bytes each), uid (4), newest (8), scannedAt (8, a
    /// Double's bits), little-endian.
    static let encodedSize = 52

    var encoded: Data {
        var data = Data(capacity: Self.encodedSize)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(stamp.device)
        append(stamp.inode)
        append(stamp.modified)
        append(stamp.changed)
        append(user)
        append(newest)
        append(scannedAt.bitPattern)
        return data
    }

    init(stamp: FolderStamp, user: UInt32, newest: Int64, scannedAt: Double, applied: Int64 = 0) {
        self.stamp = stamp
        self.user = user
        self.newest = newest
        self.scannedAt = scannedAt
        self.applied = applied
    }

    /// Reads ``encoded``; nil for anything else.
    init?(encoded data: Data, applied: Int64) {
        guard data.count == Self.encodedSize else { return nil }
        let values = data.withUnsafeBytes { bytes in
            func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
                T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            return (
                FolderStamp(
                    device: load(0, as: UInt64.self), inode: load(8, as: UInt64.self),
                    modified: load(16, as: Int64.self), changed: load(24, as: Int64.self)),
                load(32, as: UInt32.self), load(36, as: Int64.self), Double(bitPattern: load(44, as: UInt64.self))
            )
        }
        self.init(stamp: values.0, user: values.1, newest: values.2, scannedAt: values.3, applied: applied)
    }
}

/// What an import remembers of each peer folder it read (`logs/<peer>`, `baselines/<peer>`,
/// `refusals/<peer>`), so that the next import reads only the folders that changed: departed
/// devices' folders then cost one `stat` each per import instead of a listing and a query.
///
/// A folder is remembered by its stamp (device, inode, modification and change times in
/// nanoseconds) with what its listing found (the newest log, baseline or refusal notice in it).
/// A file created, removed or renamed in a folder moves its modification time (a sync
/// engine's temporary file renamed into place too); a `chmod` moves its change time. While the
/// stamp is the same, what is in the folder is the same, and the import goes by what it
/// remembers. It is trusted only:
///
/// - on local file systems that keep these times (ext4, XFS, Btrfs, tmpfs, F2FS, ZFS,
///   overlayfs); a network or FUSE mount's folders are listed at every import, as before;
/// - when the folder's times were more than ``racyWindow`` older than the listing: a file
///   added in the same clock tick as the change before it would leave the stamp as it was;
/// - by the user who made the listing (whether a folder can be listed depends on who lists it);
/// - for a day (``trustPeriod``): then the folder is listed again, a few per import.
///
/// A folder whose logs are not all applied (one is missing, or refused) is listed at every
/// import, as before. While every folder of a bucket is as remembered, a digest of their names
/// and stamps (``FolderDigest``) stands for their listings: nothing else is read.
///
/// The listings are kept in table `ubiquity_folder_scan`, per folder of logs
/// (`v<model version>/epoch-<n>`, like the watermarks), kind of folder and peer.
enum FolderScans {
    enum Kind: String, CaseIterable, Sendable {
        case logs, baselines, refusals
    }

    /// How much older than the listing a folder's times must be to be trusted: more than the
    /// coarsest timestamps of the file systems trusted (whole seconds on some). Two seconds.
    ///
    /// A testing knob: `GROCERY_DUDE_LISTING_TRUST_SECONDS` (a non-negative number of seconds,
    /// read once per process) sets another window, so that a test of departed devices' folders
    /// need not wait for theirs to age. An invalid value is ignored (the two seconds stay). Not
    /// for users: a window shorter than the file system's timestamps can miss a file added in
    /// the same tick as the listing.
    static let racyWindow: Double = trustWindow(
        fromEnvironmentValue: ProcessInfo.processInfo.environment["GROCERY_DUDE_LISTING_TRUST_SECONDS"])

    /// The window `GROCERY_DUDE_LISTING_TRUST_SECONDS` asks for: a finite non-negative number of
    /// seconds, or else (unset, not a number, negative) the default of two seconds.
    static func trustWindow(fromEnvironmentValue text: String?) -> Double {
        guard let text, let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            seconds >= 0
        else { return 2 }
        return seconds
    }
    /// How long a listing is trusted before the folder is listed again anyway.
    static let trustPeriod: Double = 24 * 3600
    /// How many folders whose listing is past ``trustPeriod`` one import lists again, per kind:
    /// a day's worth of departed peers' folders is spread over many imports.
    static let relistsPerImport = 64

    /// The remembered listings of one kind whose peer names start with `bucket`'s byte (see
    /// ``PeerFolders/bucket(of:)``), each of logs with its peer's watermark: one query, a range of
    /// the table's key.
    static func scans(folder: String, kind: Kind, bucket: UInt8, _ db: Database) throws -> [String: FolderScan] {
        // Text compares byte by byte: a bucket is a range of names.
        let lower = bucket < 0x80 ? String(UnicodeScalar(bucket)) : "\u{80}"
        let upper =
            bucket < 0x7F ? String(UnicodeScalar(bucket + 1)) : bucket == 0x7F ? "\u{80}" : "\u{10FFFF}\u{10FFFF}"
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT s.peer, s.listing, coalesce(w.lastSeq, 0)
                    FROM \(EngineTables.folderScan) s
                    LEFT JOIN \(EngineTables.peerState) w ON s.kind = 'logs' AND w.folder = s.folder AND w.peer = s.peer
                    WHERE s.folder = ? AND s.kind = ? AND s.peer >= ? AND s.peer < ?
                    """), arguments: [folder, kind.rawValue, lower, upper])
        var scans: [String: FolderScan] = [:]
        while let row = try rows.next() {
            if let scan = FolderScan(encoded: row[1], applied: row[2]) { scans[row[0]] = scan }
        }
        return scans
    }

    /// Every remembered listing of one kind (tests).
    static func all(folder: String, kind: Kind, _ db: Database) throws -> [String: FolderScan] {
        try (0...0x80).reduce(into: [:]) { all, bucket in
            all.merge(try scans(folder: folder, kind: kind, bucket: UInt8(bucket), db)) { first, _ in first }
        }
    }

    /// Remembers (or, with nil, forgets) listings.
    static func save(_ changes: [(kind: Kind, peer: String, scan: FolderScan?)], folder: String, _ db: Database) throws
    {
        for change in changes {
            if let scan = change.scan {
                try db.executeCached(
                    "INSERT OR REPLACE INTO \(EngineTables.folderScan) (folder, kind, peer, listing) VALUES (?, ?, ?, ?)",
                    [folder, change.kind.rawValue, change.peer, scan.encoded])
            } else {
                try db.executeCached(
                    "DELETE FROM \(EngineTables.folderScan) WHERE folder = ? AND kind = ? AND peer = ?",
                    [folder, change.kind.rawValue, change.peer])
            }
        }
    }

    /// The device (`st_dev`) of `path` when it is on a local file system whose folders' times
    /// move with every change to what they hold; nil otherwise (network and FUSE mounts, whose
    /// times may be cached, coarse or kept by another machine's clock).
    static func trustedDevice(_ path: String) -> UInt64? {
        #if os(Linux)
            var info = stat()
            guard stat(path, &info) == 0, let type = fileSystemType(path) else { return nil }
            let trusted: Set<UInt32> = [
                0xEF53,  // ext2, ext3, ext4
                0x5846_5342,  // XFS
                0x9123_683E,  // Btrfs
                0x0102_1994,  // tmpfs
                0xF2F5_2010,  // F2FS
                0x2FC1_2FC1,  // ZFS
                0x794C_7630,  // overlayfs
            ]
            return trusted.contains(type) ? UInt64(info.st_dev) : nil
        #else
            return nil
        #endif
    }
}

#if os(Linux)
    /// `statfs(2)`'s `f_type`, the file system's magic number. Swift's Glibc module leaves
    /// `sys/statfs.h` out, so the function is looked up; `f_type` is the structure's first field
    /// (a `long`). An unexpected layout gives a number not in any list: not trusted.
    private func fileSystemType(_ path: String) -> UInt32? {
        guard let function = statfsFunction else { return nil }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 512)
        guard function(path, buffer) == 0 else { return nil }
        return UInt32(truncatingIfNeeded: buffer.load(as: Int.self))
    }

    private typealias StatfsFunction = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32
    /// Looked up once, in the C library (already loaded) rather than through every library.
    private let statfsFunction: StatfsFunction? =
        (dlsym(dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD), "statfs") ?? dlsym(nil, "statfs"))
        .map { unsafeBitCast($0, to: StatfsFunction.self) }
#endif

/// The names in a folder (without `.` and `..`), or nil when it cannot be listed. Plain
/// `readdir`: it is called for every peer folder that changed.
func folderEntries(_ path: String) -> [String]? {
    guard let handle = opendir(path) else { return nil }
    defer { closedir(handle) }
    return folderEntries(handle)
}

/// The numbers of the files named `<10 digits>.<ext>` in a folder (``CloudLayout/number(inFileNamed:extension:)``),
/// unordered, or nil when it cannot be listed: read from the entries' bytes, no string made
/// for a name. A live importer lists a peer's folder of logs at every round.
func numberedEntries(_ path: String, extension ext: String) -> [Int64]? {
    guard let handle = opendir(path) else { return nil }
    defer { closedir(handle) }
    var numbers: [Int64] = []
    while true {
        errno = 0
        guard let entry = readdir(handle) else { return errno == 0 ? numbers : nil }
        let number = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
            let name = UnsafeRawPointer(pointer)
            let length = strlen(name.assumingMemoryBound(to: CChar.self))
            return CloudLayout.number(
                inFileNamed: UnsafeBufferPointer(start: name.assumingMemoryBound(to: UInt8.self), count: length),
                extension: ext)
        }
        if let number { numbers.append(number) }
    }
}

/// The names in an open folder, or nil when reading it fails.
func folderEntries(_ handle: OpaquePointer) -> [String]? {
    FolderNames(handle).map { names in (0..<names.count).map { names[$0] } }
}
