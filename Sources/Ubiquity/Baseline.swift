import Foundation
import GRDB

/// A coalesced snapshot of a store: every object with the clock reading of each property, every
/// tombstone, and how far into each peer's logs it goes. A new peer (or one away for long)
/// merges it instead of replaying every log; merging is property by property with clocks, like
/// a log, so loading a baseline never loses a change the loading peer has not synced yet.
///
/// Stored as `<epoch>/baselines/<peer>/<number>.gdbase`, in the envelope of logs
/// (magic `GDBASE 1`).
public struct Baseline: Codable, Equatable, Sendable {
    public struct Object: Codable, Equatable, Sendable {
        public var object: ObjectID
        public var values: [String: PropertyValue]
        public var clocks: [String: HLC]
    }

    public struct Tombstone: Codable, Equatable, Sendable {
        public var object: ObjectID
        public var clock: HLC
    }

    public static let magic = "GDBASE 1"
    public static let fileExtension = "gdbase"

    /// Per peer, the last log whose changes the baseline holds.
    public var covers: [String: Int64]
    public var created: Date
    public var objects: [Object]
    public var tombstones: [Tombstone]

    /// Reads the whole store in one read transaction.
    static func snapshot(schema: Schema, folder: String, ownPeer: String, ownExported: Int64, now: Date, _ db: Database) throws -> Baseline {
        var covers = try Watermarks.all(folder: folder, db)
        covers[ownPeer] = ownExported
        var objects: [Object] = []
        for entity in schema.entities {
            for id in try GlobalID.fetchAll(db, sql: "SELECT id FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id") {
                guard let values = try RowWriter.values(entity, id: id, db) else { continue }
                objects.append(Object(object: ObjectID(entity: entity.name, id: id), values: values,
                                      clocks: try PropertyClocks.clocks(of: id, db)))
            }
        }
        let tombstones = try Row.fetchAll(db, sql: "SELECT objectID, entity, clock FROM \(EngineTables.tombstone) ORDER BY objectID")
            .compactMap { row -> Tombstone? in
                guard let id = GlobalID(row[0] as String), let clock = HLC(row[2] as String) else { return nil }
                return Tombstone(object: ObjectID(entity: row[1], id: id), clock: clock)
            }
        return Baseline(covers: covers, created: now, objects: objects, tombstones: tombstones)
    }
}

extension CloudLayout {
    public var baselinesFolder: URL { epochFolder.appendingPathComponent("baselines", isDirectory: true) }

    func baselineURL(peer: String, number: Int64) -> URL {
        let digits = String(number)
        return baselinesFolder.appendingPathComponent(peer, isDirectory: true)
            .appendingPathComponent(String(repeating: "0", count: max(0, 10 - digits.count)) + digits + "." + Baseline.fileExtension)
    }

    /// Every baseline file present: (peer, number, url), any peer.
    func baselineFiles() -> [(peer: String, number: Int64, url: URL)] {
        let peers = (try? FileManager.default.contentsOfDirectory(atPath: baselinesFolder.path)) ?? []
        return peers.filter { !$0.hasPrefix(".") }.flatMap { peer -> [(peer: String, number: Int64, url: URL)] in
            let folder = baselinesFolder.appendingPathComponent(peer, isDirectory: true)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.compactMap { name in
                guard name.hasSuffix("." + Baseline.fileExtension) else { return nil }
                let stem = name.dropLast(Baseline.fileExtension.count + 1)
                guard stem.count == 10, stem.allSatisfy(\.isNumber), let number = Int64(stem) else { return nil }
                return (peer, number, folder.appendingPathComponent(name))
            }
        }
    }
}

extension CloudSync {
    /// Writes a baseline of this peer's store (after exporting what is pending).
    ///
    /// - Returns: the file written, or `nil` when saves arrived meanwhile (try again).
    @discardableResult
    public func writeBaseline() throws -> URL? {
        try exportPending()
        let seqKey = "exportedSeq.v\(layout.modelVersion).epoch\(layout.epoch)"
        let snapshot = try store.read { db -> Baseline? in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.outbox)") == 0 else { return nil }
            let exported = try String.fetchOne(db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?",
                                               arguments: [seqKey]).flatMap { Int64($0) } ?? 0
            return try Baseline.snapshot(schema: store.schema, folder: layout.watermarkFolder, ownPeer: peer,
                                         ownExported: exported, now: Date(), db)
        }
        guard let snapshot else { return nil }
        let number = (layout.baselineFiles().filter { $0.peer == peer }.map(\.number).max() ?? 0) + 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try LogFile.seal(try encoder.encode(snapshot), magic: Baseline.magic, layout: layout,
                                    peer: peer, device: device, seq: number)
        let url = layout.baselineURL(peer: peer, number: number)
        try layout.makeFolder(url.deletingLastPathComponent())
        try AtomicFile.write(data, to: url)
        return url
    }

    /// How many logs (exported or imported) this peer has been through since its last baseline.
    func logsSinceBaseline() throws -> Int64 {
        try store.read { db in
            let exported = try Int64.fetchCached(db, """
                SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM \(EngineTables.metadata) WHERE key LIKE 'exportedSeq.%'
                """) ?? 0
            let imported = try Watermarks.all(folder: layout.watermarkFolder, db).filter { $0.key != peer }.values.reduce(0, +)
            let atBaseline = try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = 'logsAtBaseline'")
                .flatMap { Int64($0) } ?? 0
            return exported + imported - atBaseline
        }
    }

    /// Writes a baseline once this peer has been through `interval` logs since its last one,
    /// and removes its own logs covered by baselines older than `gracePeriod`: how peers
    /// coalesce history without anyone asking.
    @discardableResult
    public func coalesceHistoryIfDue(interval: Int64 = 500, gracePeriod: TimeInterval = 7 * 24 * 3600) throws -> URL? {
        let since = try logsSinceBaseline()
        guard since >= interval else { return nil }
        guard let url = try writeBaseline() else { return nil }
        let total = try logsSinceBaseline() + (try store.metadata("logsAtBaseline").flatMap { Int64($0) } ?? 0)
        try store.write { db in
            try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('logsAtBaseline', ?)",
                                 [String(total)])
        }
        try pruneCoveredLogs(gracePeriod: gracePeriod)
        logger.info("wrote baseline \(url.lastPathComponent) after \(since) logs")
        return url
    }

    /// Merges the baselines that reach beyond what this peer has applied from some other peer,
    /// and moves the watermarks up to what they cover: the logs they cover are not replayed.
    ///
    /// - Returns: how many baselines were merged.
    func loadBaselines(into report: inout ImportReport) throws -> Int {
        var loaded = 0
        for file in layout.baselineFiles().sorted(by: { ($0.peer, $0.number) < ($1.peer, $1.number) }) {
            // Each baseline is opened once: later imports only look at new ones.
            let seenKey = "baselineSeen.\(file.peer)"
            guard file.number > (try store.metadata(seenKey).flatMap { Int64($0) } ?? 0) else { continue }
            defer {
                try? store.write { db in
                    try db.execute(sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                                   arguments: [seenKey, String(file.number)])
                }
            }
            let header: LogFile.Header
            let baseline: Baseline
            do {
                let data = try Data(contentsOf: file.url)
                let payload: Data
                (header, payload) = try LogFile.open(data, magic: Baseline.magic, expecting: layout, peer: file.peer, seq: file.number)
                baseline = try JSONDecoder().decode(Baseline.self, from: payload)
            } catch {
                report.rejected.append("baseline \(file.number) from peer \(file.peer): \(error)")
                continue
            }
            let watermarks = try store.read { db in try Watermarks.all(folder: layout.watermarkFolder, db) }
            // Every new baseline is merged once, even one that covers no log this peer lacks: a
            // peer that moved to a new model version publishes its older data that way.
            let changes = try store.write { db -> ImportedChanges in
                let merger = Merger(schema: store.schema, policy: policy, db: db, localPeer: peer)
                var changes = ImportedChanges()
                for tombstone in baseline.tombstones { try merger.delete(tombstone.object, clock: tombstone.clock, into: &changes) }
                for object in baseline.objects {
                    var stamped: [String: (PropertyValue, HLC)] = [:]
                    for (property, clock) in object.clocks { if let value = object.values[property] { stamped[property] = (value, clock) } }
                    try merger.merge(object.object, properties: stamped, fallback: object.values, into: &changes)
                }
                for (other, seq) in baseline.covers where seq > (watermarks[other] ?? 0) {
                    try Watermarks.set(other, seq, folder: layout.watermarkFolder, db)
                }
                if let newest = baseline.objects.flatMap(\.clocks.values).max() {
                    try PropertyClocks.setCurrent(HLC.merged(try PropertyClocks.current(db), seen: newest, peer: peer), db)
                }
                try Outbox.countImport(db)
                return changes
            }
            loaded += 1
            report.loadedBaselines += 1
            report.changes.formUnion(changes)
            if !changes.isEmpty {
                report.devices.insert(header.device)
                notifyImport(changes)
            }
        }
        return loaded
    }

    /// After a store moved to a newer model version, publishes everything it holds into that
    /// version's folder as a baseline: its data from the older version then reaches the peers
    /// already on the new one (versions do not read each other's logs).
    func publishIfUpgraded() throws {
        let version = String(layout.modelVersion)
        let published = try store.metadata("publishedVersion")
        guard published != version else { return }
        let created = try store.metadata("createdAtVersion") ?? version
        try store.write { db in
            try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('publishedVersion', ?)", [version])
        }
        guard created != version else { return }  // born at this version: its logs are all here
        do {
            guard try writeBaseline() != nil else { throw CloudError.unreachable(layout.cloud.path) }
            logger.info("published this store's data to model version \(version)")
        } catch {
            // Try again next time.
            try store.write { db in
                try db.executeCached("DELETE FROM \(EngineTables.metadata) WHERE key = 'publishedVersion'")
            }
            throw error
        }
    }

    /// Removes this peer's own logs that a baseline covers, once that baseline is older than
    /// `gracePeriod` (peers that were offline meanwhile load the baseline instead).
    ///
    /// - Returns: how many logs were removed.
    @discardableResult
    public func pruneCoveredLogs(gracePeriod: TimeInterval = 7 * 24 * 3600, now: Date = Date()) throws -> Int {
        var covered: Int64 = 0
        for file in layout.baselineFiles() {
            guard let data = try? Data(contentsOf: file.url),
                  let (_, payload) = try? LogFile.open(data, magic: Baseline.magic, expecting: layout, peer: file.peer, seq: file.number),
                  let baseline = try? JSONDecoder().decode(Baseline.self, from: payload),
                  now.timeIntervalSince(baseline.created) >= gracePeriod
            else { continue }
            covered = max(covered, baseline.covers[peer] ?? 0)
        }
        var removed = 0
        for seq in layout.sequenceNumbers(of: peer) where seq <= covered {
            try FileManager.default.removeItem(at: layout.logURL(peer: peer, seq: seq))
            removed += 1
        }
        return removed
    }
}
