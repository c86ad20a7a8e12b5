import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

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
struct FolderStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    /// Nanoseconds since 1970.
    var modified: Int64
    var changed: Int64

    /// The stamp of the folder at `path` (following a link), or nil when it is not a folder
    /// or cannot be looked at.
    static func of(_ path: String) -> FolderStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return FolderStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
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

    /// Whether the folder's times were old enough at the listing that any later change to it
    /// shows in its stamp.
    var isSettled: Bool {
        let limit = Int64((scannedAt - FolderScans.racyWindow) * 1e9)
        return stamp.modified < limit && stamp.changed < limit
    }
}

/// The remembered listings (table `ubiquity_folder_scan`), per folder of logs
/// (`v<model version>/epoch-<n>`, like the watermarks), kind of folder and peer.
enum FolderScans {
    enum Kind: String, CaseIterable, Sendable {
        case logs, baselines, refusals
    }

    /// How much older than the listing a folder's times must be to be trusted: more than the
    /// coarsest timestamps of the file systems trusted (whole seconds on some).
    static let racyWindow: Double = 2
    /// How long a listing is trusted before the folder is listed again anyway.
    static let trustPeriod: Double = 24 * 3600
    /// How many folders whose listing is past ``trustPeriod`` one import lists again, per kind:
    /// a day's worth of departed peers' folders is spread over many imports.
    static let relistsPerImport = 64

    static func all(folder: String, _ db: Database) throws -> [Kind: [String: FolderScan]] {
        var scans: [Kind: [String: FolderScan]] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT kind, peer, device, inode, mtime, ctime, uid, newest, scannedAt FROM \(EngineTables.folderScan) WHERE folder = ?
            """), arguments: [folder])
        while let row = try rows.next() {
            guard let kind = Kind(rawValue: row[0]) else { continue }
            let stamp = FolderStamp(device: UInt64(bitPattern: row[2]), inode: UInt64(bitPattern: row[3]), modified: row[4], changed: row[5])
            scans[kind, default: [:]][row[1]] = FolderScan(stamp: stamp, user: UInt32(truncatingIfNeeded: row[6] as Int64),
                                                           newest: row[7], scannedAt: row[8])
        }
        return scans
    }

    /// Remembers (or, with nil, forgets) listings.
    static func save(_ changes: [(kind: Kind, peer: String, scan: FolderScan?)], folder: String, _ db: Database) throws {
        for change in changes {
            if let scan = change.scan {
                try db.executeCached("""
                    INSERT OR REPLACE INTO \(EngineTables.folderScan) (folder, kind, peer, device, inode, mtime, ctime, uid, newest, scannedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [folder, change.kind.rawValue, change.peer, Int64(bitPattern: scan.stamp.device), Int64(bitPattern: scan.stamp.inode),
                          scan.stamp.modified, scan.stamp.changed, Int64(scan.user), scan.newest, scan.scannedAt])
            } else {
                try db.executeCached("DELETE FROM \(EngineTables.folderScan) WHERE folder = ? AND kind = ? AND peer = ?",
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
    typealias Function = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32
    guard let symbol = dlsym(nil, "statfs") else { return nil }
    let function = unsafeBitCast(symbol, to: Function.self)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 512)
    guard function(path, buffer) == 0 else { return nil }
    return UInt32(truncatingIfNeeded: buffer.load(as: Int.self))
}
#endif

/// The names in a folder (without `.` and `..`), or nil when it cannot be listed. Plain
/// `readdir`: it is called for every peer folder that changed.
func folderEntries(_ path: String) -> [String]? {
    guard let handle = opendir(path) else { return nil }
    defer { closedir(handle) }
    var names: [String] = []
    while true {
        errno = 0
        guard let entry = readdir(handle) else { return errno == 0 ? names : nil }
        let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
            pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
        }
        if name != ".", name != ".." { names.append(name) }
    }
}

/// The peer folders of one folder (`logs/`, `baselines/`, `refusals/`) as one import finds
/// them: each one's stamp, which ones it can go by what an earlier import remembered, and
/// what it lists now to remember for the next.
struct PeerFolders {
    let kind: FolderScans.Kind
    let path: String
    /// The peers with a folder here, sorted.
    let peers: [String]
    /// Whether the folder itself could be listed (when not, nothing remembered is forgotten).
    let isListed: Bool
    private let stamps: [String: FolderStamp]
    private let remembered: [String: FolderScan]
    private let trusted: [String: FolderScan]
    private let scanStart: Double
    private let device: UInt64?
    private let user: UInt32
    private var changes: [String: FolderScan?] = [:]

    /// Lists `folder`, keeps the names `isPeer` accepts, and takes each one's stamp.
    ///
    /// - Parameters:
    ///   - scanStart: the time before any of it was read (seconds since 1970).
    ///   - device: the file system whose stamps are trusted (``FolderScans/trustedDevice(_:)``).
    init(_ kind: FolderScans.Kind, folder: URL, isPeer: (String) -> Bool, remembered: [String: FolderScan],
         scanStart: Double, device: UInt64?, user: UInt32 = geteuid()) {
        self.kind = kind
        path = folder.path
        let names = folderEntries(path)
        isListed = names != nil
        peers = (names ?? []).filter(isPeer).sorted()
        self.remembered = remembered
        self.scanStart = scanStart
        self.device = device
        self.user = user
        var stamps: [String: FolderStamp] = [:]
        var trusted: [String: FolderScan] = [:]
        var relists = FolderScans.relistsPerImport
        for peer in peers {
            guard let stamp = FolderStamp.of(path + "/" + peer) else { continue }
            stamps[peer] = stamp
            guard let device, stamp.device == device, let scan = remembered[peer], scan.stamp == stamp, scan.user == user,
                  scan.isSettled else { continue }
            // Past its day (or made by a clock far off), a listing is made again, a few at a time.
            if abs(scanStart - scan.scannedAt) > FolderScans.trustPeriod, relists > 0 {
                relists -= 1
                continue
            }
            trusted[peer] = scan
        }
        self.stamps = stamps
        self.trusted = trusted
    }

    /// The folder of `peer`.
    func path(_ peer: String) -> String { path + "/" + peer }

    /// What an earlier import found in `peer`'s folder, when the folder has not changed since:
    /// then it need not be listed (nor checked that it can be).
    func unchanged(_ peer: String) -> FolderScan? { trusted[peer] }

    /// How many of the folders need listing.
    var changedCount: Int { peers.count - trusted.count }

    /// Remembers what the listing of `peer`'s folder made in this import found — only when
    /// its stamp can be trusted; otherwise what was remembered of it is forgotten.
    mutating func remember(_ peer: String, newest: Int64) {
        guard let stamp = stamps[peer], let device, stamp.device == device else { return forget(peer) }
        let scan = FolderScan(stamp: stamp, user: user, newest: newest, scannedAt: scanStart)
        guard scan.isSettled else { return forget(peer) }
        // Written only when something changed, or to renew a listing past its day.
        if let old = remembered[peer], old.stamp == stamp, old.user == user, old.newest == newest, old.isSettled,
           abs(scanStart - old.scannedAt) <= FolderScans.trustPeriod {
            changes[peer] = nil
            return
        }
        changes[peer] = .some(scan)
    }

    /// Forgets what was remembered of `peer`'s folder: it is listed again by the next import.
    mutating func forget(_ peer: String) {
        changes[peer] = remembered[peer] == nil ? nil : .some(nil)
    }

    /// What to write: listings to remember, and to forget (those of folders gone, too).
    var pendingChanges: [(kind: FolderScans.Kind, peer: String, scan: FolderScan?)] {
        var all = changes.map { (kind: kind, peer: $0.key, scan: $0.value) }
        if isListed {
            let present = Set(peers)
            all += remembered.keys.filter { !present.contains($0) }.map { (kind: kind, peer: $0, scan: nil) }
        }
        return all
    }
}

/// The peer folders of a store's place in the cloud folder as one import (or a status) finds
/// them, with every watermark: read in one query each, whatever the number of peers.
struct FolderSurvey {
    var logs: PeerFolders
    var baselines: PeerFolders
    var refusals: PeerFolders
    /// Per peer, the last log applied, as read before the import.
    let watermarks: [String: Int64]

    /// Whether `peer`'s logs need reading: its folder changed, or holds a log not applied yet
    /// (one that waits, or is refused).
    func needsImport(_ peer: String) -> Bool {
        guard let scan = logs.unchanged(peer) else { return true }
        return (watermarks[peer] ?? 0) < scan.newest
    }

    var pendingChanges: [(kind: FolderScans.Kind, peer: String, scan: FolderScan?)] {
        logs.pendingChanges + baselines.pendingChanges + refusals.pendingChanges
    }
}

extension CloudSync {
    /// Lists the store's folders of logs, baselines and refusal notices, and stamps each peer
    /// folder in them; reads what earlier imports remembered and the watermarks.
    func survey() throws -> FolderSurvey {
        let scanStart = folderClock()
        let (scans, watermarks) = try store.read { db in
            (try FolderScans.all(folder: layout.watermarkFolder, db), try Watermarks.all(folder: layout.watermarkFolder, db))
        }
        let epochFolder = layout.epochFolder
        let device = FolderScans.trustedDevice(epochFolder.path)
        func folders(_ kind: FolderScans.Kind, _ name: String, isPeer: (String) -> Bool) -> PeerFolders {
            PeerFolders(kind, folder: epochFolder.appendingPathComponent(name, isDirectory: true), isPeer: isPeer,
                        remembered: scans[kind] ?? [:], scanStart: scanStart, device: device)
        }
        return FolderSurvey(
            logs: folders(.logs, "logs", isPeer: HLC.isPeerName),
            // As baselines were always found: any name but a hidden one.
            baselines: folders(.baselines, "baselines") { !$0.hasPrefix(".") },
            refusals: folders(.refusals, "refusals") { [peer] in HLC.isPeerName($0) && $0 != peer },
            watermarks: watermarks)
    }

    /// Writes what the survey's listings found, when anything changed.
    func remember(_ survey: FolderSurvey) throws {
        let changes = survey.pendingChanges
        guard !changes.isEmpty else { return }
        try store.write { db in try FolderScans.save(changes, folder: layout.watermarkFolder, db) }
    }
}
