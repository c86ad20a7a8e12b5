import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// A digest of a folder of peer folders (`logs/`, `baselines/`, `refusals/`): every peer
/// folder's name and stamp, recorded when every one of them was as remembered (listed and
/// trusted, nothing left to read in it). An import that finds the same digest knows that no
/// peer folder changed without reading a single remembered listing: then a departed peer costs
/// a `stat` and a few additions.
struct FolderDigest: Equatable, Sendable {
    var count: Int
    /// Order-independent sums of each folder's mixed name and stamp (readdir's order varies).
    var sum: UInt64
    var xor: UInt64
    /// Who listed them, on which file system.
    var user: UInt32
    var device: UInt64
    /// The oldest listing among them (seconds since 1970): once it is past its day, the
    /// listings are read (and renewed).
    var oldest: Double
    /// The newest that the listings found (refusal notices: the newest log of this peer refused).
    var newest: Int64

    /// Accumulates one peer folder.
    mutating func add(_ name: String, _ stamp: FolderStamp) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        hash = Self.mix(hash ^ stamp.device)
        hash = Self.mix(hash ^ stamp.inode)
        hash = Self.mix(hash ^ UInt64(bitPattern: stamp.modified))
        hash = Self.mix(hash ^ UInt64(bitPattern: stamp.changed))
        count += 1
        sum &+= hash
        xor ^= hash
    }

    /// splitmix64's finalizer.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether `self`, as found now, is what `recorded` says, and still trusted.
    func matches(_ recorded: FolderDigest, scanStart: Double) -> Bool {
        count == recorded.count && sum == recorded.sum && xor == recorded.xor && user == recorded.user && device == recorded.device
            && abs(scanStart - recorded.oldest) <= FolderScans.trustPeriod
    }

    /// As kept in the metadata table.
    var text: String { "\(count) \(sum) \(xor) \(user) \(device) \(oldest) \(newest)" }

    init(count: Int = 0, sum: UInt64 = 0, xor: UInt64 = 0, user: UInt32, device: UInt64, oldest: Double = 0, newest: Int64 = 0) {
        self.count = count
        self.sum = sum
        self.xor = xor
        self.user = user
        self.device = device
        self.oldest = oldest
        self.newest = newest
    }

    init?(text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 7, let count = Int(parts[0]), let sum = UInt64(parts[1]), let xor = UInt64(parts[2]),
              let user = UInt32(parts[3]), let device = UInt64(parts[4]), let oldest = Double(parts[5]),
              let newest = Int64(parts[6]) else { return nil }
        self.init(count: count, sum: sum, xor: xor, user: user, device: device, oldest: oldest, newest: newest)
    }

    /// The metadata key of a folder of peer folders.
    static func key(folder: String, kind: FolderScans.Kind) -> String { "folderDigest.\(folder).\(kind.rawValue)" }
}

/// The peer folders of one folder (`logs/`, `baselines/`, `refusals/`) as one import finds
/// them: each one's stamp, which ones it can go by what an earlier import remembered, and
/// what it lists now to remember for the next.
struct PeerFolders {
    let kind: FolderScans.Kind
    let path: String
    /// Whether the folder itself could be listed (when not, nothing remembered is forgotten).
    let isListed: Bool
    /// Every peer with a folder here, as listed, with its stamp (nil: not a folder, or cannot
    /// be looked at).
    private let entries: [(peer: String, stamp: FolderStamp?)]
    /// This listing's digest, when every entry is a folder on a trusted file system.
    private let digest: FolderDigest?
    /// What the last import that found every folder as remembered recorded.
    private let recorded: FolderDigest?
    /// Whether every folder is as that import left it (or there is no folder to look at):
    /// nothing to list, no listing to read.
    let isAsRecorded: Bool
    /// The peers whose folders must be listed, sorted: changed since an earlier import listed
    /// them, never listed, or their listing is not trusted. The others are as remembered.
    private(set) var changed: [String] = []
    /// Logs: the peers whose folder has not changed but holds a log not applied yet (one that
    /// waits for a missing log, or is refused), sorted.
    private(set) var behind: [String] = []
    /// The newest that the listings of the unchanged folders found.
    private(set) var newestUnchanged: Int64 = 0
    /// What earlier imports remembered (read only when the digest does not match).
    private var remembered: [String: FolderScan] = [:]
    /// The stamps of the folders that changed (taken before they are listed).
    private var stamps: [String: FolderStamp] = [:]
    private var changes: [String: FolderScan?] = [:]
    /// Per peer whose folder is as remembered once this import is done: when it was listed,
    /// what it found.
    private var settled: [String: (scannedAt: Double, newest: Int64)] = [:]
    private let scanStart: Double
    private let device: UInt64?
    private let user: UInt32

    /// Lists `folder`, keeps the names `isPeer` accepts, and takes each one's stamp.
    ///
    /// - Parameters:
    ///   - recorded: the digest the last import recorded, if any.
    ///   - scanStart: the time before any of it was read (seconds since 1970).
    ///   - device: the file system whose stamps are trusted (``FolderScans/trustedDevice(_:)``).
    init(_ kind: FolderScans.Kind, folder: URL, isPeer: (String) -> Bool, recorded: FolderDigest?,
         scanStart: Double, device: UInt64?, user: UInt32 = geteuid()) {
        self.kind = kind
        path = folder.path
        self.recorded = recorded
        self.scanStart = scanStart
        self.device = device
        self.user = user
        let handle = opendir(path)
        defer { if let handle { closedir(handle) } }
        guard let handle, let names = folderEntries(handle) else {
            // Not there (not made yet), or cannot be listed (reported for logs and baselines):
            // nothing in it to read, and nothing remembered of it is forgotten.
            isListed = false
            entries = []
            digest = nil
            isAsRecorded = true
            return
        }
        isListed = true
        let parent = dirfd(handle)
        var entries: [(peer: String, stamp: FolderStamp?)] = []
        entries.reserveCapacity(names.count)
        var digest = device.map { FolderDigest(user: user, device: $0) }
        for name in names where isPeer(name) {
            let stamp = FolderStamp.of(name, in: parent)
            entries.append((name, stamp))
            if let stamp, stamp.device == device { digest?.add(name, stamp) } else { digest = nil }
        }
        self.entries = entries
        self.digest = digest
        if let digest, let recorded, digest.matches(recorded, scanStart: scanStart) {
            isAsRecorded = true
            newestUnchanged = recorded.newest
        } else {
            isAsRecorded = false
            changed = entries.map(\.peer)  // until compared with what was remembered
        }
    }

    /// Compares every folder with what earlier imports remembered of it (when the digest did
    /// not match): those unchanged are not listed.
    mutating func compare(with remembered: [String: FolderScan]) {
        guard !isAsRecorded else { return }
        self.remembered = remembered
        changed = []
        var relists = FolderScans.relistsPerImport
        for (peer, stamp) in entries {
            guard let stamp else {
                changed.append(peer)  // not a folder (any more), or gone: looked at again
                continue
            }
            if let scan = remembered[peer], let device, stamp.device == device, scan.stamp == stamp, scan.user == user,
               scan.isSettled {
                // Past its day (or made by a clock far off), a listing is made again, a few at a time.
                let isPastItsDay = abs(scanStart - scan.scannedAt) > FolderScans.trustPeriod
                if !isPastItsDay || relists == 0 {
                    if kind == .logs, scan.applied < scan.newest {
                        behind.append(peer)
                    } else {
                        settled[peer] = (scan.scannedAt, scan.newest)
                    }
                    newestUnchanged = max(newestUnchanged, scan.newest)
                    continue
                }
                relists -= 1
            }
            stamps[peer] = stamp
            changed.append(peer)
        }
        // Peer names are ASCII: byte order is the order peers were always read in.
        changed.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        behind.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// How many peer folders there are.
    var count: Int { entries.count }

    /// The folder of `peer`.
    func path(_ peer: String) -> String { path + "/" + peer }

    /// Remembers what the listing of `peer`'s folder made in this import found — only when
    /// its stamp can be trusted; otherwise what was remembered of it is forgotten.
    ///
    /// - Parameter isDone: whether nothing is left to read in it (logs: all applied).
    mutating func remember(_ peer: String, newest: Int64, isDone: Bool = true) {
        guard let stamp = stamps[peer], let device, stamp.device == device else { return forget(peer) }
        let scan = FolderScan(stamp: stamp, user: user, newest: newest, scannedAt: scanStart)
        guard scan.isSettled else { return forget(peer) }
        // Written only when something changed, or to renew a listing past its day.
        if let old = remembered[peer], old.stamp == stamp, old.user == user, old.newest == newest, old.isSettled,
           abs(scanStart - old.scannedAt) <= FolderScans.trustPeriod {
            changes[peer] = nil
            settled[peer] = isDone ? (old.scannedAt, newest) : nil
            return
        }
        changes[peer] = .some(scan)
        settled[peer] = isDone ? (scanStart, newest) : nil
    }

    /// Forgets what was remembered of `peer`'s folder: it is listed again by the next import.
    mutating func forget(_ peer: String) {
        changes[peer] = remembered[peer] == nil ? nil : .some(nil)
        settled[peer] = nil
    }

    /// What to write: listings to remember, and to forget (those of folders gone, too).
    var pendingChanges: [(kind: FolderScans.Kind, peer: String, scan: FolderScan?)] {
        var all = changes.map { (kind: kind, peer: $0.key, scan: $0.value) }
        if isListed, !remembered.isEmpty {
            let present = Set(entries.map(\.peer))
            all += remembered.keys.filter { !present.contains($0) }.map { (kind: kind, peer: $0, scan: nil) }
        }
        return all
    }

    /// The digest to record once this import is done: this listing's, when every folder is as
    /// remembered (nil: none, the next import reads the listings).
    var digestToRecord: FolderDigest? {
        if isAsRecorded { return recorded }
        guard var digest, settled.count == entries.count else { return nil }
        digest.oldest = settled.values.map(\.scannedAt).min() ?? scanStart
        digest.newest = settled.values.map(\.newest).max() ?? 0
        return digest
    }
}

/// The peer folders of a store's place in the cloud folder as one import (or a status) finds
/// them, with what earlier imports remembered of them.
struct FolderSurvey {
    var logs: PeerFolders
    var baselines: PeerFolders
    var refusals: PeerFolders
    /// The digests read.
    let recorded: [FolderScans.Kind: FolderDigest]

    /// The peers whose logs need reading, sorted: their folder changed, or holds a log not
    /// applied yet (one that waits, or is refused).
    var logsToRead: [String] {
        (logs.changed + logs.behind).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// How many peer folders there are, how many to list.
    var count: Int { logs.count + baselines.count + refusals.count }
}

extension CloudSync {
    /// Lists the store's folders of logs, baselines and refusal notices, and stamps each peer
    /// folder in them. Where a folder's digest is as the last import recorded, nothing more is
    /// read; otherwise what earlier imports remembered of each peer folder (with the
    /// watermarks), in one query.
    func survey() throws -> FolderSurvey {
        let scanStart = folderClock()
        let folder = layout.watermarkFolder
        let recorded = try store.read { db in
            try Dictionary(FolderScans.Kind.allCases.compactMap { kind in
                try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [FolderDigest.key(folder: folder, kind: kind)])
                    .flatMap(FolderDigest.init(text:)).map { (kind, $0) }
            }) { first, _ in first }
        }
        let epochFolder = layout.epochFolder
        let device = FolderScans.trustedDevice(epochFolder.path)
        func folders(_ kind: FolderScans.Kind, _ name: String, isPeer: (String) -> Bool) -> PeerFolders {
            PeerFolders(kind, folder: epochFolder.appendingPathComponent(name, isDirectory: true), isPeer: isPeer,
                        recorded: recorded[kind], scanStart: scanStart, device: device)
        }
        var survey = FolderSurvey(
            logs: folders(.logs, "logs", isPeer: HLC.isPeerName),
            // As baselines were always found: any name but a hidden one.
            baselines: folders(.baselines, "baselines") { !$0.hasPrefix(".") },
            refusals: folders(.refusals, "refusals") { [peer] in HLC.isPeerName($0) && $0 != peer },
            recorded: recorded)
        if !(survey.logs.isAsRecorded && survey.baselines.isAsRecorded && survey.refusals.isAsRecorded) {
            let scans = try store.read { db in try FolderScans.all(folder: folder, db) }
            survey.logs.compare(with: scans[.logs] ?? [:])
            survey.baselines.compare(with: scans[.baselines] ?? [:])
            survey.refusals.compare(with: scans[.refusals] ?? [:])
        }
        return survey
    }

    /// Writes what the survey's listings found, when anything changed.
    func remember(_ survey: FolderSurvey) throws {
        let folder = layout.watermarkFolder
        let changes = survey.pendingChanges
        var digests: [(key: String, digest: FolderDigest?)] = []
        for folders in [survey.logs, survey.baselines, survey.refusals] {
            let digest = folders.digestToRecord
            if digest != survey.recorded[folders.kind] { digests.append((FolderDigest.key(folder: folder, kind: folders.kind), digest)) }
        }
        guard !changes.isEmpty || !digests.isEmpty else { return }
        try store.write { db in
            try FolderScans.save(changes, folder: folder, db)
            for (key, digest) in digests {
                if let digest {
                    try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)", [key, digest.text])
                } else {
                    try db.executeCached("DELETE FROM \(EngineTables.metadata) WHERE key = ?", [key])
                }
            }
        }
    }
}

extension FolderSurvey {
    var pendingChanges: [(kind: FolderScans.Kind, peer: String, scan: FolderScan?)] {
        logs.pendingChanges + baselines.pendingChanges + refusals.pendingChanges
    }
}
