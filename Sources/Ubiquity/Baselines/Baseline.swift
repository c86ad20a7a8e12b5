import Foundation
import GRDB
import TextAndFiles

/// A coalesced snapshot of a store: every object with the clock reading of each property, every
/// tombstone, and how far into each peer's logs it goes. A new peer (or one away for long)
/// merges it instead of replaying every log; merging is property by property with clocks, like
/// a log, so loading a baseline never loses a change the loading peer has not synced yet.
///
/// Stored as `<epoch>/baselines/<peer>/<number>.gdbase`, in the envelope of logs: written in
/// the compact format (magic `GDBASE 2`, `Baseline+Compact.swift`); the first format's files
/// (`GDBASE 1`, `Baseline+FirstFormat.swift`) are still read.
public struct Baseline: Codable, Equatable, Sendable {
    public struct Object: Codable, Equatable, Sendable {
        public var object: ObjectID
        public var values: [String: PropertyValue]
        public var clocks: [String: HLC]
    }

    public struct Tombstone: Codable, Equatable, Sendable {
        public var object: ObjectID
        public var clock: HLC
        /// The copy the object was merged into by a deduplication; `nil`: it was deleted.
        /// Absent from baselines written before merges existed.
        public var mergedInto: GlobalID?
    }

    /// The magic line of baselines this build writes.
    public static let magic = "GDBASE 2"
    /// The magic line of the first format, which builds before the compact one wrote.
    public static let firstFormatMagic = "GDBASE 1"
    public static let fileExtension = "gdbase"
    /// The largest baseline read, in bytes (100k items take about a tenth of it); a larger
    /// one is refused after reading its header.
    public static let maximumBytes = 1 << 30

    /// Per peer, the last log whose changes the baseline holds.
    public var covers: [String: Int64]
    public var created: Date
    public var objects: [Object]
    public var tombstones: [Tombstone]

    /// Reads and checks a baseline file's envelope and reads its payload, in either format.
    ///
    /// - Throws: ``LogFileError`` or ``LogFileFailure`` for the envelope; ``LogFileFailure``
    ///   with ``LogFileError/badPayload`` when the payload cannot be read.
    static func read(at url: URL, expecting layout: CloudLayout, peer: String, number: Int64) throws -> (
        LogFile.Header, Baseline
    ) {
        let (header, payload, format) = try EnvelopeFile.read(
            at: url, magics: [Self.magic, Self.firstFormatMagic], limit: maximumBytes,
            expecting: layout, peer: peer, seq: number)
        let baseline: Baseline?
        if format == Self.magic {
            baseline = Baseline(compactData: payload)
        } else {
            baseline = try? Baseline(jsonData: payload)
        }
        guard let baseline else { throw LogFileFailure(error: .badPayload, header: header) }
        return (header, baseline)
    }

    /// Reads the whole store in one read transaction.
    static func snapshot(schema: Schema, folder: String, ownPeer: String, ownExported: Int64, now: Date, _ db: Database)
        throws -> Baseline
    {
        var covers = try Watermarks.all(folder: folder, db)
        covers[ownPeer] = ownExported
        // Values whose blob has not arrived (a photo still in transit) travel as the blob's
        // reference with their reading: a peer loading the baseline waits for the same file,
        // instead of the baseline covering the log that carried the photo without the photo.
        var waiting: [String: (entity: String, values: [(property: String, hash: String, clock: HLC)])] = [:]
        for row in try Row.fetchAll(
            db,
            sql:
                "SELECT objectID, entity, property, hash, clock FROM \(EngineTables.pendingBlob) ORDER BY objectID, property"
        ) {
            guard let clock = HLC(row[4] as String) else { continue }
            waiting[row[0], default: (row[1], [])].values.append((row[2], row[3], clock))
        }
        var objects: [Object] = []
        for entity in schema.entities {
            for id in try GlobalID.fetchAll(
                db, sql: "SELECT id FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id")
            {
                guard var values = try RowWriter.values(entity, id: id, db) else { continue }
                // A value stored before its rule existed would make every peer refuse the
                // baseline: such an object stays on this device only.
                if (try? schema.check(ObjectID(entity: entity.name, id: id), values: values)) == nil { continue }
                var clocks = try PropertyClocks.clocks(of: id, in: entity, db)
                for pending in waiting.removeValue(forKey: id.description)?.values ?? []
                where clocks[pending.property].map({ $0 < pending.clock }) ?? true {
                    values[pending.property] = .blob(pending.hash)
                    clocks[pending.property] = pending.clock
                }
                objects.append(Object(object: ObjectID(entity: entity.name, id: id), values: values, clocks: clocks))
            }
        }
        // An object whose only values wait for their blobs has no row yet: it travels as them.
        for (text, object) in waiting.sorted(by: { $0.key < $1.key }) {
            guard let id = GlobalID(text), schema.entity(named: object.entity) != nil else { continue }
            objects.append(
                Object(
                    object: ObjectID(entity: object.entity, id: id),
                    values: Dictionary(object.values.map { ($0.property, PropertyValue.blob($0.hash)) }) { _, last in
                        last
                    },
                    clocks: Dictionary(object.values.map { ($0.property, $0.clock) }) { _, last in last }))
        }
        let tombstones = try Row.fetchAll(
            db, sql: "SELECT objectID, entity, clock, mergedInto FROM \(EngineTables.tombstone) ORDER BY objectID"
        )
        .compactMap { row -> Tombstone? in
            guard let id = GlobalID(row[0] as String), let clock = HLC(row[2] as String) else { return nil }
            return Tombstone(
                object: ObjectID(entity: row[1], id: id), clock: clock,
                mergedInto: (row[3] as String?).flatMap(GlobalID.init))
        }
        return Baseline(covers: covers, created: now, objects: objects, tombstones: tombstones)
    }
}

extension CloudLayout {
    public var baselinesFolder: URL { epochFolder.appendingPathComponent("baselines", isDirectory: true) }

    func baselineURL(peer: String, number: Int64) -> URL {
        let digits = String(number)
        return baselinesFolder.appendingPathComponent(peer, isDirectory: true)
            .appendingPathComponent(
                String(repeating: "0", count: max(0, 10 - digits.count)) + digits + "." + Baseline.fileExtension)
    }

    /// Every baseline file present: (peer, number, url), any peer.
    func baselineFiles() -> [(peer: String, number: Int64, url: URL)] {
        let peers = folderEntries(baselinesFolder.path) ?? []
        return peers.filter { !$0.hasPrefix(".") }.flatMap { peer in
            baselineNumbers(of: peer).map { (peer, $0, baselineURL(peer: peer, number: $0)) }
        }
    }

    /// The numbers of a peer's baselines present now, ascending.
    func baselineNumbers(of peer: String) -> [Int64] {
        Self.baselineNumbers(
            in: folderEntries(baselinesFolder.appendingPathComponent(peer, isDirectory: true).path) ?? [])
    }

    /// The baseline numbers that file names give, ascending.
    static func baselineNumbers(in names: [String]) -> [Int64] {
        names.compactMap { number(inFileNamed: $0, extension: Baseline.fileExtension) }.sorted()
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
            let exported =
                try String.fetchOne(
                    db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?",
                    arguments: [seqKey]
                ).flatMap { Int64($0) } ?? 0
            return try Baseline.snapshot(
                schema: store.schema, folder: layout.watermarkFolder, ownPeer: peer,
                ownExported: exported, now: LocalClock.readable(Date()), db)
        }
        guard let snapshot else { return nil }
        // After every number used, the ones gone from the folder too: a published name is never
        // written again (a peer that merged baseline 2 skips any later file named 2).
        let remembered = OwnBaseline(try store.metadata(AuditKey.ownBaseline))?.number ?? 0
        let number = max(layout.baselineNumbers(of: peer).last ?? 0, remembered) + 1
        let data = try LogFile.seal(
            try snapshot.compactData(), magic: Baseline.magic, layout: layout,
            peer: peer, device: device, seq: number)
        let url = layout.baselineURL(peer: peer, number: number)
        try layout.makeFolder(url.deletingLastPathComponent())
        // Another process of this device wrote it: again.
        guard try AtomicFile.create(data, at: url) else { return nil }
        // What the audit checks: this baseline, and the own logs it covers.
        try store.setMetadata(
            AuditKey.ownBaseline,
            OwnBaseline(number: number, covers: snapshot.covers[peer] ?? 0, size: Int64(data.count)).text)
        return url
    }

    /// How many logs (exported or imported) this peer has been through since its last baseline.
    func logsSinceBaseline() throws -> Int64 {
        try store.read { db in
            let exported =
                try Int64.fetchCached(
                    db,
                    """
                    SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM \(EngineTables.metadata) WHERE key LIKE 'exportedSeq.%'
                    """) ?? 0
            let imported = try Watermarks.all(folder: layout.watermarkFolder, db).filter { $0.key != peer }.values
                .reduce(0, +)
            let atBaseline =
                try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = 'logsAtBaseline'")
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
            try db.executeCached(
                "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('logsAtBaseline', ?)",
                [String(total)])
        }
        try pruneCoveredLogs(gracePeriod: gracePeriod)
        logger.info("wrote baseline \(url.lastPathComponent) after \(since) logs")
        return url
    }

    /// Merges every baseline not merged before, and moves the watermarks up to what they
    /// cover: the logs they cover are not replayed.
    ///
    /// A baseline counts as merged only once it was applied: one that cannot be read yet (a
    /// copy in progress) or breaks the rules is tried again at every later import — from what
    /// is remembered of it while the file stays the same.
    ///
    /// - Returns: how many baselines were merged.
    func loadBaselines(into report: inout ImportReport, remembered: [String: RefusedFile], folders: inout PeerFolders)
        throws -> Int
    {
        guard !folders.changed.isEmpty else { return 0 }  // every folder as remembered: nothing read
        var loaded = 0
        // Which baselines were merged, read once: "baselineSeen.<peer>.<number>", and from the
        // earlier scheme "baselineSeen.<peer>" with the newest number merged.
        let seen = try store.read { db in
            Dictionary(
                try Row.fetchAll(
                    db, sql: "SELECT key, value FROM \(EngineTables.metadata) WHERE key LIKE 'baselineSeen.%'"
                )
                .map { ($0[0] as String, $0[1] as String) }
            ) { first, _ in first }
        }
        for other in folders.changed {
            // A folder whose baselines were all merged, unchanged since, is not listed again.
            guard let names = folderEntries(folders.path(other)) else {
                folders.forget(other)
                continue
            }
            let numbers = CloudLayout.baselineNumbers(in: names)
            var allMerged = true
            for number in numbers {
                let file = (peer: other, number: number, url: layout.baselineURL(peer: other, number: number))
                let seenKey = "baselineSeen.\(file.peer).\(file.number)"
                guard seen[seenKey] == nil, number > (seen["baselineSeen.\(other)"].flatMap { Int64($0) } ?? 0) else {
                    continue
                }
                if try loadBaseline(file, seenKey: seenKey, into: &report, remembered: remembered) {
                    loaded += 1
                } else {
                    allMerged = false
                }
            }
            if allMerged { folders.remember(other, newest: numbers.last ?? 0) } else { folders.forget(other) }
        }
        return loaded
    }

    /// Merges one baseline not merged before, or refuses it.
    ///
    /// - Returns: whether it was merged.
    private func loadBaseline(
        _ file: (peer: String, number: Int64, url: URL), seenKey: String, into report: inout ImportReport,
        remembered: [String: RefusedFile]
    ) throws -> Bool {
        let path = layout.relativePath(file.url)
        let stamp = (try? FileStamp.of(file.url).get()) ?? FileStamp(size: -1, modified: 0)
        if let refused = remembered[path], refused.isUnchanged(stamp) {
            report.refused.append(refused)
            report.rejected.append(refused.summary)
            return false
        }
        var device: String?
        let outcome: Result<ImportedChanges, RuleViolation>
        do {
            let (header, baseline) = try Baseline.read(
                at: file.url, expecting: layout, peer: file.peer, number: file.number)
            device = header.device
            try store.schema.check(baseline)
            outcome = try merge(baseline, seenKey: seenKey, from: file.peer, device: header.device, number: file.number)
        } catch let failure as LogFileFailure {
            outcome = .failure(
                RuleViolation(failure.error == .badPayload ? "its content cannot be read" : failure.error.description))
            device = failure.header.device
        } catch let error as LogFileError {
            outcome = .failure(RuleViolation(error.description))
        } catch let violation as RuleViolation {
            outcome = .failure(violation)
        }
        switch outcome {
        case .success(let changes):
            try store.write { db in try RefusedFiles.forget(path, db) }
            report.loadedBaselines += 1
            report.changes.formUnion(changes)
            if !changes.isEmpty {
                if let device { report.devices.insert(device) }
                notifyImport(changes)
            }
            return true
        case .failure(let violation):
            let refusal = RefusedFile(
                path: path, kind: .baseline, peer: file.peer, seq: file.number, device: device,
                reason: violation.reason, size: stamp.size, modified: stamp.modified, refusedAt: Date())
            try store.write { db in try RefusedFiles.record(refusal, db) }
            report.refused.append(refusal)
            report.rejected.append(refusal.summary)
            logger.warning("refused \(refusal.summary); tried again when it changes")
            return false
        }
    }

    /// Merges a checked baseline in one transaction, marking it merged in the same one; a
    /// change the store's checks refuse rolls it all back.
    private func merge(_ baseline: Baseline, seenKey: String, from writer: String, device: String, number: Int64)
        throws -> Result<ImportedChanges, RuleViolation>
    {
        do {
            return .success(
                try store.write { db -> ImportedChanges in
                    let watermarks = try Watermarks.all(folder: layout.watermarkFolder, db)
                    let merger = Merger(schema: store.schema, policy: policy, db: db)
                    let now = store.clock.now()
                    var checked: [(object: ObjectID, values: [String: PropertyValue])] = []
                    checked.reserveCapacity(2 * baseline.tombstones.count + baseline.objects.count)
                    for tombstone in baseline.tombstones {
                        checked.append((tombstone.object, [:]))
                        if let target = tombstone.mergedInto {
                            checked.append((ObjectID(entity: tombstone.object.entity, id: target), [:]))
                        }
                    }
                    for object in baseline.objects { checked.append((object.object, object.values)) }
                    let held = try merger.check(checked)
                    var changes = ImportedChanges()
                    for tombstone in baseline.tombstones {
                        if let target = tombstone.mergedInto {
                            _ = try merger.merge(
                                ObjectMerge(object: tombstone.object, into: target), clock: tombstone.clock,
                                into: &changes)
                        } else {
                            try merger.delete(tombstone.object, clock: tombstone.clock, into: &changes)
                        }
                    }
                    // What the store holds for the objects once the tombstones are written (a delete
                    // or merge may tombstone another object than the one it names: the copy it
                    // became), read at once, as for a log: an object without a tombstone stands for
                    // itself, and one without a row needs no query for its clocks. Two point queries an
                    // object were a fifth of a new peer's join.
                    let untombstoned =
                        baseline.tombstones.isEmpty
                        ? held
                        : try StoredEntities(
                            of: checked.suffix(baseline.objects.count).flatMap { object, values in
                                [object.id]
                                    + values.values.compactMap { value in
                                        if case .reference(let target) = value { target } else { nil }
                                    }
                            }, schema: store.schema, db)
                    for object in baseline.objects {
                        var stamped = [String: (PropertyValue, HLC)](minimumCapacity: object.clocks.count)
                        for (property, clock) in object.clocks {
                            if let value = object.values[property] { stamped[property] = (value, clock) }
                        }
                        try merger.merge(
                            object.object, properties: stamped, fallback: object.values, into: &changes,
                            untombstoned: untombstoned)
                    }
                    // Every new baseline is merged once, even one that covers no log this peer
                    // lacks: a peer that moved to a new model version publishes its older data that way.
                    for (other, seq) in baseline.covers where seq > (watermarks[other] ?? 0) {
                        try Watermarks.set(other, seq, folder: layout.watermarkFolder, db)
                    }
                    if let newest = baseline.objects.flatMap(\.clocks.values).max() {
                        try LocalClock.observe(newest, now: now, peer: peer, db)
                    }
                    if writer != peer {
                        try ClocksAhead.note(
                            writtenAt: baseline.created, peer: writer, device: device, file: "baseline \(number)",
                            now: now, db)
                    }
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, '1')",
                        arguments: [seenKey])
                    try Outbox.countImport(db)
                    return changes
                })
        } catch let violation as RuleViolation {
            return .failure(violation)
        } catch let error as DatabaseError where Self.isRefusal(error) {
            return .failure(RuleViolation("the store cannot take it: \(error.message ?? error.description)"))
        }
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
            try db.executeCached(
                "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('publishedVersion', ?)", [version]
            )
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
            guard
                let (_, baseline) = try? Baseline.read(
                    at: file.url, expecting: layout, peer: file.peer, number: file.number),
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
