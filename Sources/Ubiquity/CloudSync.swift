import Foundation
import GRDB
import Logging

/// What one import found and did.
public struct ImportReport: Equatable, Sendable {
    /// How many logs were applied.
    public var appliedLogs = 0
    public var changes = ImportedChanges()
    /// Peers held back by a missing log: "waiting for log 17 from peer …".
    public var waiting: [String] = []
    /// Files skipped because they are damaged, truncated or foreign, with why.
    public var rejected: [String] = []
    /// How many baselines were merged (each one spares replaying the logs it covers).
    public var loadedBaselines = 0
    /// The devices whose logs or baselines changed something, by name.
    public var devices: Set<String> = []

    public init() {}
}

/// A device's link between its store and the cloud folder: exports its own saves as logs and
/// imports other peers' logs (DESIGN §3 and §4).
///
/// Safe to use from several threads: exports and imports each run inside the store's
/// serialized writes.
public final class CloudSync: @unchecked Sendable {
    public let store: ObjectStore
    public let layout: CloudLayout
    public let device: String
    let policy: any MergePolicy
    let logger: Logger
    private let importObservers = ObserverList<ImportedChanges>()

    /// The most logs one import transaction applies.
    static let batchSize = 500

    public init(store: ObjectStore, layout: CloudLayout, device: String,
                policy: any MergePolicy = LastWriterWins(), logger: Logger = .silent) {
        self.store = store
        self.layout = layout
        self.device = device
        self.policy = policy
        self.logger = logger
    }

    public var peer: String { store.peer }

    /// Calls `observer` after every import batch that changed something, with the objects it
    /// inserted, updated and deleted (`didImportContentChanges`). On the importing thread.
    public func observeImports(_ observer: @escaping (ImportedChanges) -> Void) {
        importObservers.add(observer)
    }

    func notifyImport(_ changes: ImportedChanges) {
        importObservers.notify(changes)
    }

    // MARK: - Export

    /// Writes every pending save as the next log of this peer. A crash at any point exports the
    /// same save again under the same number with the same bytes: nothing lost, nothing doubled.
    ///
    /// Each log is written inside the store's write transaction that then removes its outbox
    /// row: SQLite's write lock keeps two exporters of the same device (the app and a command,
    /// or two threads) from numbering two saves alike.
    ///
    /// - Returns: how many logs it wrote.
    @discardableResult
    public func exportPending() throws -> Int {
        var written = 0
        // Never into an epoch a peer has left: that content is deleted, and nobody reads it.
        if try pendingExports() > 0, layout.isSuperseded {
            throw CloudError.contentRemoved(epoch: layout.epoch, current: layout.currentEpoch())
        }
        // A store that has never exported may be a new store of a peer that has (a store
        // rebuilt or lost): learn this peer's own logs and baselines first, so that numbering
        // continues after them and what they hold comes back.
        if try store.metadata(exportedSeqKey(modelVersion: layout.modelVersion)) == nil,
           !layout.sequenceNumbers(of: peer).isEmpty || layout.baselineFiles().contains(where: { $0.peer == peer }) {
            _ = try importPending()
        }
        while try store.write({ db in try exportOldest(db) }) {
            written += 1
        }
        return written
    }

    func exportedSeqKey(modelVersion: Int) -> String { "exportedSeq.v\(modelVersion).epoch\(layout.epoch)" }

    /// Exports the oldest outbox row, if any; returns whether there was one.
    private func exportOldest(_ db: Database) throws -> Bool {
        guard let pending = try Outbox.first(db) else { return false }
        let versionLayout = try CloudLayout(cloud: layout.cloud, account: layout.account, storeName: layout.storeName,
                                            modelVersion: pending.modelVersion, epoch: layout.epoch)
        let seqKey = exportedSeqKey(modelVersion: pending.modelVersion)
        var seq = (try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [seqKey])
            .flatMap { Int64($0) } ?? 0) + 1
        let isCurrentVersion = pending.modelVersion == layout.modelVersion
        let own = isCurrentVersion ? try watermark(of: peer, db) : 0
        if own >= seq {
            // This peer's logs go further than the store remembers exporting (it imported
            // them). If the next one is this very save, it was written before a crash: done.
            if let data = try? Data(contentsOf: versionLayout.logURL(peer: peer, seq: seq)),
               let log = try? LogFile.decode(data, expecting: versionLayout, peer: peer, seq: seq),
               log.record.transactionID == pending.record.transactionID {
                try Outbox.remove(sequence: pending.sequence, db)
                try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)", [seqKey, String(seq)])
                return true
            }
            seq = own + 1
        }
        let data = try LogFile.encode(try externalizingBlobs(pending.record), layout: versionLayout, peer: peer,
                                      device: device, seq: seq)
        let url = versionLayout.logURL(peer: peer, seq: seq)
        try versionLayout.makeFolder(url.deletingLastPathComponent())
        if FaultInjection.isRequested(FaultInjection.midLogWrite) {
            try data.prefix(data.count / 2).write(to: url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp"))
            FaultInjection.crash(at: FaultInjection.midLogWrite)
        }
        try AtomicFile.write(data, to: url)
        try Outbox.remove(sequence: pending.sequence, db)
        try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)", [seqKey, String(seq)])
        if isCurrentVersion {
            // Its own logs count as applied: they are never imported back.
            try Watermarks.set(peer, seq, folder: layout.watermarkFolder, db)
        }
        logger.debug("exported log \(seq)")
        return true
    }

    // MARK: - Import

    /// Applies every other peer's logs that are next in line, per peer in order, exactly once.
    /// A missing log holds back that peer only; a bad file is skipped and reported.
    public func importPending() throws -> ImportReport {
        var report = ImportReport()
        _ = try loadBaselines(into: &report)
        // Every peer's logs, this one's too: its own are marked applied as they are exported,
        // so they come back only into a store that lost them.
        for other in layout.peers() {
            try importLogs(of: other, into: &report)
        }
        try applyArrivedBlobs(into: &report)
        try publishIfUpgraded()
        // The last time the folder was read without trouble; written when something arrived, or
        // at most once a minute otherwise (the live watcher rescans every few seconds).
        let now = Date().timeIntervalSince1970
        let last = try store.metadata("lastSync").flatMap(Double.init) ?? 0
        if report.appliedLogs > 0 || report.loadedBaselines > 0 || now - last >= 60 {
            try store.write { db in
                try db.executeCached("INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('lastSync', ?)", [String(now)])
            }
        }
        // A digest that fails to publish never fails the import.
        do { try publishDigestIfChanged() } catch { logger.warning("digest not published: \(ErrorText.reason(error))") }
        return report
    }

    private func importLogs(of other: String, into report: inout ImportReport) throws {
        let available = layout.sequenceNumbers(of: other)
        guard let newest = available.last else { return }
        var applied = try watermark(of: other)
        let present = Set(available)
        while applied < newest {
            var batch: [LogFile] = []
            var next = applied + 1
            while present.contains(next), batch.count < Self.batchSize {
                do {
                    batch.append(try readLog(of: other, seq: next))
                } catch let error as LogFileError {
                    let message = "log \(next) from peer \(other): \(error)"
                    report.rejected.append(message)
                    logger.warning("skipped \(message)")
                    break
                }
                next += 1
            }
            if !batch.isEmpty {
                let batchEnd = applied + Int64(batch.count)
                let changes = try store.write { db -> ImportedChanges in
                    // Another importer of this device (the app and a command) may have gone
                    // further meanwhile: skip what it applied, never move the watermark back.
                    let current = try Watermarks.get(other, folder: layout.watermarkFolder, db)
                    let merger = Merger(schema: store.schema, policy: policy, db: db, localPeer: peer)
                    var changes = ImportedChanges()
                    for log in batch where log.header.seq > current {
                        changes.formUnion(try merger.apply(resolvingBlobs(log.record), from: other))
                    }
                    guard batchEnd > current else { return changes }
                    try Watermarks.set(other, batchEnd, folder: layout.watermarkFolder, db)
                    try Outbox.countImport(db)
                    return changes
                }
                applied = batchEnd
                report.appliedLogs += batch.count
                report.changes.formUnion(changes)
                if !changes.isEmpty { report.devices.formUnion(batch.map(\.header.device)) }
                if !changes.isEmpty { notifyImport(changes) }
                logger.info("imported \(batch.count) log(s) from peer \(other): \(changes.count) object(s) changed")
            }
            if batch.count < Self.batchSize {
                if applied < newest, !present.contains(applied + 1) {
                    report.waiting.append("waiting for log \(applied + 1) from peer \(other)")
                }
                return
            }
        }
    }

    private func readLog(of other: String, seq: Int64) throws -> LogFile {
        let url = layout.logURL(peer: other, seq: seq)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LogFileError.unreadable(ErrorText.reason(error))
        }
        return try LogFile.decode(data, expecting: layout, peer: other, seq: seq)
    }

    /// The last log applied from a peer.
    public func watermark(of other: String) throws -> Int64 {
        try store.read { db in try watermark(of: other, db) }
    }

    func watermark(of other: String, _ db: Database) throws -> Int64 {
        try Watermarks.get(other, folder: layout.watermarkFolder, db)
    }

    // MARK: - Both

    /// Exports, then imports.
    @discardableResult
    public func sync() throws -> ImportReport {
        try exportPending()
        return try importPending()
    }

    /// How many saves wait to be exported.
    public func pendingExports() throws -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.outbox)") ?? 0 }
    }

    /// How many logs are present and not applied yet (this peer's own only after a store lost them).
    public func pendingImports() throws -> Int {
        var count = 0
        for other in layout.peers() {
            let applied = try watermark(of: other)
            count += layout.sequenceNumbers(of: other).filter { $0 > applied }.count
        }
        return count
    }
}
