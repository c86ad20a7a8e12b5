import Foundation
import GRDB
import TextAndFiles

#if canImport(Glibc)
    import Glibc
#endif

/// A digest of a bucket of peer folders (those of `logs/`, `baselines/` or `refusals/` whose
/// names start with the same character): every one's name and stamp, recorded when every one
/// of them was as remembered (listed and trusted, nothing left to read in it). An import that
/// finds the same digest knows that none of them changed without reading a single remembered
/// listing: then a departed peer costs a `stat` and a few additions. A peer that writes (this
/// device, an active one) makes its bucket's listings be read, not all of them.
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

    /// Accumulates one peer folder, given its name's UTF-8 bytes (where `readdir` left them).
    mutating func add<Bytes: Sequence<UInt8>>(_ name: Bytes, _ stamp: FolderStamp) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
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
        count == recorded.count && sum == recorded.sum && xor == recorded.xor && user == recorded.user
            && device == recorded.device
            && abs(scanStart - recorded.oldest) <= FolderScans.trustPeriod
    }

    /// As kept in the metadata table.
    var text: String { "\(count) \(sum) \(xor) \(user) \(device) \(oldest) \(newest)" }

    init(
        count: Int = 0, sum: UInt64 = 0, xor: UInt64 = 0, user: UInt32, device: UInt64, oldest: Double = 0,
        newest: Int64 = 0
    ) {
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
            let newest = Int64(parts[6])
        else { return nil }
        self.init(count: count, sum: sum, xor: xor, user: user, device: device, oldest: oldest, newest: newest)
    }

    /// The metadata key of a bucket's digest.
    static func key(folder: String, kind: FolderScans.Kind, bucket: UInt8) -> String {
        keyPrefix(folder: folder) + kind.rawValue + "." + String(bucket, radix: 16)
    }

    static func keyPrefix(folder: String) -> String { "folderDigest.\(folder)." }

    /// Every digest recorded for a folder of logs, by kind and bucket: one query.
    static func all(folder: String, _ db: Database) throws -> [FolderScans.Kind: [UInt8: FolderDigest]] {
        let prefix = keyPrefix(folder: folder)
        var digests: [FolderScans.Kind: [UInt8: FolderDigest]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT key, value FROM \(EngineTables.metadata) WHERE key > ? AND key < ?"),
            arguments: [prefix, prefix + "\u{7F}"])
        {
            let parts = (row[0] as String).dropFirst(prefix.count).split(separator: ".")
            guard parts.count == 2, let kind = FolderScans.Kind(rawValue: String(parts[0])),
                let bucket = UInt8(parts[1], radix: 16),
                let digest = FolderDigest(text: row[1])
            else { continue }
            digests[kind, default: [:]][bucket] = digest
        }
        return digests
    }
}

/// The peer folders of one folder (`logs/`, `baselines/`, `refusals/`) as one import finds
/// them: each one's stamp, which ones it can go by what an earlier import remembered, and
/// what it lists now to remember for the next.
struct PeerFolders {
    let kind: FolderScans.Kind
    let path: String
    /// Whether the folder itself could be listed (when not, nothing remembered is forgotten).
    let isListed: Bool
    /// The peer folders by bucket (``bucket(of:)``).
    private var buckets: [UInt8: Bucket] = [:]
    /// The folder's names as listed: a bucket's entries point into them, and a name is made a
    /// string only where the bucket is read further.
    private let names: FolderNames?
    /// The peers whose folders must be listed, sorted: changed since an earlier import listed
    /// them, never listed, or their listing is not trusted. The others are as remembered.
    private(set) var changed: [String] = []
    /// Logs: the peers whose folder has not changed but holds a log not applied yet (one that
    /// waits for a missing log, or is refused), sorted.
    private(set) var behind: [String] = []
    /// The newest that the listings of the unchanged folders found.
    private(set) var newestUnchanged: Int64 = 0
    /// What earlier imports remembered of the buckets read.
    private var remembered: [String: FolderScan] = [:]
    /// The stamps of the folders that changed (taken before they are listed).
    private var stamps: [String: FolderStamp] = [:]
    private var changes: [String: FolderScan?] = [:]
    /// Per peer whose folder is as remembered once this import is done: when it was listed,
    /// what it found.
    private var settled: [String: (scannedAt: Double, newest: Int64)] = [:]
    private let recorded: [UInt8: FolderDigest]
    private let scanStart: Double
    private let device: UInt64?
    private let user: UInt32

    private struct Bucket {
        /// Its peer folders, by their place in ``PeerFolders/names``, with their stamps (nil:
        /// not a folder, or cannot be looked at).
        var entries: [(name: Int, stamp: FolderStamp?)] = []
        /// Their digest, while every one is a folder on the trusted file system.
        var digest: FolderDigest?
        var isAsRecorded = false

        /// Adds a peer folder, and to the digest while it is one on the trusted file system.
        mutating func add(_ name: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ stamp: FolderStamp?, device: UInt64?) {
            entries.append((name, stamp))
            if let stamp, stamp.device == device {
                digest?.add(bytes, stamp)
            } else {
                digest = nil
            }
        }
    }

    /// Peers are bucketed by their name's first byte (any non-ASCII one in one bucket).
    static func bucket(of peer: String) -> UInt8 { bucket(ofFirstByte: peer.utf8.first) }

    static func bucket(ofFirstByte byte: UInt8?) -> UInt8 { min(byte ?? 0, 0x80) }

    /// The peer names of a bucket's entries.
    private func peers(_ bucket: Bucket) -> [String] { bucket.entries.map { names![$0.name] } }

    /// Lists `folder`, keeps the names `isPeer` accepts (given their UTF-8 bytes), and takes
    /// each one's stamp.
    ///
    /// - Parameters:
    ///   - recorded: the digests the last imports recorded, by bucket.
    ///   - scanStart: the time before any of it was read (seconds since 1970).
    ///   - device: the file system whose stamps are trusted (``FolderScans/trustedDevice(_:)``).
    init(
        _ kind: FolderScans.Kind, folder: URL, isPeer: (UnsafeBufferPointer<UInt8>) -> Bool,
        recorded: [UInt8: FolderDigest],
        scanStart: Double, device: UInt64?, user: UInt32 = geteuid()
    ) {
        self.kind = kind
        path = folder.path
        self.recorded = recorded
        self.scanStart = scanStart
        self.device = device
        self.user = user
        let handle = opendir(path)
        defer { if let handle { closedir(handle) } }
        guard let handle, let names = FolderNames(handle) else {
            // Not there (not made yet), or cannot be listed (reported for logs and baselines):
            // nothing in it to read, and nothing remembered of it is forgotten.
            isListed = false
            names = nil
            return
        }
        isListed = true
        self.names = names
        let parent = dirfd(handle)
        // By bucket (a name's first byte, 0x80 for any non-ASCII one) in an array, changed where
        // it lies: a dictionary's `subscript(_:default:)` allocated twice at each access.
        var byBucket = [Bucket?](repeating: nil, count: 0x81)
        names.withNames { name in
            for index in 0..<names.count {
                let bytes = name(index)
                guard isPeer(bytes) else { continue }
                // Listings are remembered by name, and Swift's strings compare canonically ("é"
                // is "e" + U+0301, U+212A is "K"): a name outside ASCII (only baselines' folders
                // may have one) is never stamped, so it is always listed and never stands for
                // another. A name's bytes are followed by its NUL: a C string where they lie.
                let stamp =
                    bytes.isASCII
                    ? bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count + 1) {
                        FolderStamp.of(cName: $0, in: parent)
                    } : nil
                let key = Int(Self.bucket(ofFirstByte: bytes.first))
                if byBucket[key] == nil {
                    byBucket[key] = Bucket(digest: device.map { FolderDigest(user: user, device: $0) })
                }
                byBucket[key]!.add(index, bytes, stamp, device: device)
            }
        }
        for (key, bucket) in byBucket.enumerated() {
            if let bucket { buckets[UInt8(key)] = bucket }
        }
        for (key, bucket) in buckets {
            guard let digest = bucket.digest, let recorded = recorded[key],
                digest.matches(recorded, scanStart: scanStart)
            else {
                changed += peers(bucket)  // until compared with what was remembered
                continue
            }
            buckets[key]!.isAsRecorded = true
            newestUnchanged = max(newestUnchanged, recorded.newest)
        }
    }

    /// Whether every bucket is as the import that recorded it left it (or there is no folder to
    /// look at): nothing to list, no listing to read.
    var isAsRecorded: Bool { bucketsToRead.isEmpty }

    /// The buckets whose listings must be read: not as recorded, or gone since.
    var bucketsToRead: [UInt8] {
        guard isListed else { return [] }
        return Set(buckets.keys).union(recorded.keys).filter { buckets[$0]?.isAsRecorded != true }.sorted()
    }

    /// Compares the folders of the buckets read with what earlier imports remembered of them:
    /// those unchanged are not listed.
    mutating func compare(with remembered: [String: FolderScan]) {
        self.remembered = remembered
        changed = []
        var relists = FolderScans.relistsPerImport
        for bucket in buckets.values where !bucket.isAsRecorded {
            for (name, stamp) in bucket.entries {
                let peer = names![name]
                guard let stamp else {
                    changed.append(peer)  // not a folder (any more), or gone: looked at again
                    continue
                }
                if let scan = remembered[peer], let device, stamp.device == device, scan.stamp == stamp,
                    scan.user == user,
                    scan.isSettled
                {
                    // Past its day (or made by a clock far off), a listing is made again, a few at a time.
                    let isPastItsDay = abs(scanStart - scan.scannedAt) > FolderScans.trustPeriod
                    if !isPastItsDay || relists == 0 {
                        if kind == .logs, scan.applied < scan.newest {
                            stamps[peer] = stamp  // remembered again as it is, not forgotten
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
        }
        // Byte order is the order peers were always read in.
        changed.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        behind.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// How many peer folders there are.
    var count: Int { buckets.values.reduce(0) { $0 + $1.entries.count } }

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
            abs(scanStart - old.scannedAt) <= FolderScans.trustPeriod
        {
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
            let present = Set(buckets.values.flatMap(peers))
            all += remembered.keys.filter { !present.contains($0) }.map { (kind: kind, peer: $0, scan: nil) }
        }
        return all
    }

    /// The digests to record (or, nil, to forget) once this import is done, by bucket: a
    /// bucket's digest is recorded when every folder in it is as remembered.
    var digestChanges: [(bucket: UInt8, digest: FolderDigest?)] {
        bucketsToRead.compactMap { key in
            let digest = buckets[key].flatMap(completeDigest)
            return digest == recorded[key] ? nil : (key, digest)
        }
    }

    /// A bucket's digest, when every folder in it is as remembered once this import is done.
    private func completeDigest(_ bucket: Bucket) -> FolderDigest? {
        guard var digest = bucket.digest else { return nil }
        let done = peers(bucket).compactMap { settled[$0] }
        guard done.count == bucket.entries.count else { return nil }
        digest.oldest = done.map(\.scannedAt).min() ?? scanStart
        digest.newest = done.map(\.newest).max() ?? 0
        return digest
    }
}

/// The peer folders of a store's place in the cloud folder as one import (or a status) finds
/// them, with what earlier imports remembered of them.
struct FolderSurvey {
    var logs: PeerFolders
    var baselines: PeerFolders
    var refusals: PeerFolders

    /// The peers whose logs need reading, sorted: their folder changed, or holds a log not
    /// applied yet (one that waits, or is refused).
    var logsToRead: [String] {
        (logs.changed + logs.behind).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// How many peer folders there are.
    var count: Int { logs.count + baselines.count + refusals.count }

    var pendingChanges: [(kind: FolderScans.Kind, peer: String, scan: FolderScan?)] {
        logs.pendingChanges + baselines.pendingChanges + refusals.pendingChanges
    }
}

extension CloudSync {
    /// Lists the store's folders of logs, baselines and refusal notices, and stamps each peer
    /// folder in them. Where a bucket's digest is as the last import recorded, nothing more is
    /// read; otherwise what earlier imports remembered of each of its folders (with the
    /// watermarks).
    func survey() throws -> FolderSurvey {
        let scanStart = folderClock()
        let folder = layout.watermarkFolder
        let recorded = try store.read { db in try FolderDigest.all(folder: folder, db) }
        let epochFolder = layout.epochFolder
        let device = FolderScans.trustedDevice(epochFolder.path)
        func folders(
            _ kind: FolderScans.Kind, _ name: String, isPeer: (UnsafeBufferPointer<UInt8>) -> Bool
        ) -> PeerFolders {
            PeerFolders(
                kind, folder: epochFolder.appendingPathComponent(name, isDirectory: true), isPeer: isPeer,
                recorded: recorded[kind] ?? [:], scanStart: scanStart, device: device)
        }
        var survey = FolderSurvey(
            logs: folders(.logs, "logs") { HLC.isPeerName(bytes: $0) },
            // As baselines were always found: any name but a hidden one (as a string sees it:
            // "." and a combining mark are not a dot).
            baselines: folders(.baselines, "baselines") { !String(decoding: $0, as: UTF8.self).hasPrefix(".") },
            refusals: folders(.refusals, "refusals") { [peer] in
                HLC.isPeerName(bytes: $0) && !$0.elementsEqual(peer.utf8)
            })
        func compare(_ folders: inout PeerFolders) throws {
            let buckets = folders.bucketsToRead
            guard !buckets.isEmpty else { return }
            let kind = folders.kind
            let scans = try store.read { db in
                try buckets.reduce(into: [String: FolderScan]()) { scans, bucket in
                    scans.merge(try FolderScans.scans(folder: folder, kind: kind, bucket: bucket, db)) { first, _ in
                        first
                    }
                }
            }
            folders.compare(with: scans)
        }
        try compare(&survey.logs)
        try compare(&survey.baselines)
        try compare(&survey.refusals)
        return survey
    }

    /// Writes what the survey's listings found, when anything changed, with the time of the
    /// sync when given (`lastSync`): one transaction, not two, at the end of an import round.
    /// Not synced (``ObjectStore/writeUnsynced(_:)``): a listing lost in a power cut is read
    /// again, and `lastSync` goes back a round.
    func remember(_ survey: FolderSurvey, lastSync: Double?) throws {
        let folder = layout.watermarkFolder
        let changes = survey.pendingChanges
        let digests = [survey.logs, survey.baselines, survey.refusals].flatMap { folders in
            folders.digestChanges.map {
                (key: FolderDigest.key(folder: folder, kind: folders.kind, bucket: $0.bucket), digest: $0.digest)
            }
        }
        guard !changes.isEmpty || !digests.isEmpty || lastSync != nil else { return }
        try store.writeUnsynced { db in
            if let lastSync {
                try db.executeCached(
                    "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('lastSync', ?)",
                    [String(lastSync)])
            }
            try FolderScans.save(changes, folder: folder, db)
            for (key, digest) in digests {
                if let digest {
                    try db.executeCached(
                        "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                        [key, digest.text])
                } else {
                    try db.executeCached("DELETE FROM \(EngineTables.metadata) WHERE key = ?", [key])
                }
            }
        }
    }
}
