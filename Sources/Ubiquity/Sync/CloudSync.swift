import Foundation
import GRDB
import Logging
import TextAndFiles

/// What one import found and did.
public struct ImportReport: Equatable, Sendable {
    /// How many logs were applied.
    public var appliedLogs = 0
    public var changes = ImportedChanges()
    /// Peers held back by a missing log: "waiting for log 17 from peer …".
    public var waiting: [String] = []
    /// The logs those peers wait for, by their path under the logs folder, as a folder watcher
    /// names them ("peer-a/0000000017.gdlog").
    public var awaitedLogs: Set<String> = []
    /// Files skipped because they are damaged, truncated or foreign, with why.
    public var rejected: [String] = []
    /// The files refused (now, or earlier and unchanged since): each holds its peer back when
    /// it is that peer's next log.
    public var refused: [RefusedFile] = []
    /// How many baselines were merged (each one spares replaying the logs it covers).
    public var loadedBaselines = 0
    /// The devices whose logs or baselines changed something, by name.
    public var devices: Set<String> = []

    public init() {}

    /// Whether it applied a log or merged a baseline: something a screen may have to show.
    public var changedSomething: Bool { appliedLogs > 0 || loadedBaselines > 0 || !changes.isEmpty }

    /// Adds what a later import found and did.
    public mutating func add(_ later: ImportReport) {
        appliedLogs += later.appliedLogs
        loadedBaselines += later.loadedBaselines
        changes.formUnion(later.changes)
        devices.formUnion(later.devices)
        waiting = later.waiting
        awaitedLogs = later.awaitedLogs
        rejected = later.rejected
        refused = later.refused
    }
}

/// This peer's log `seq` exists already and is not the save being exported: the store is
/// behind what the device published.
struct PublishedHistoryAhead: Error {
    let seq: Int64
}

/// A device's link between its store and the cloud folder: exports its own saves as logs and
/// imports other peers' logs.
///
/// Safe to use from several threads: exports and imports each run inside the store's
/// serialized writes.
public final class CloudSync: @unchecked Sendable {
    public let store: ObjectStore
    public let layout: CloudLayout
    public let device: String
    /// Which copy of the device's data folder this is (the app tells it: a hash of the machine and the folder's path), written in
    /// every log; nil turns clone detection off.
    public let instance: String?
    /// Who uses the device (its person), written in every log it publishes; `nil`: none.
    public let person: String?
    let policy: any MergePolicy
    let logger: Logger
    private let importObservers = ObserverList<ImportedChanges>()
    /// Whether this instance removed the leftovers of a crash yet (once, at its first import).
    private var recoveries: [HistoryNote] = []
    private let recoveriesLock = NSLock()
    private var lastRefusals = 0
    private var leftoversRemoved = false
    /// How many peer folders the last import listed, of how many there are.
    private var lastListings = (listed: 0, of: 0)
    private var clone: CloneEvidence?
    /// When this process last read the cloud folder without trouble (the store keeps it at
    /// most once a second).
    private var lastImport: Date?
    /// The `lastSync` this process last wrote to the store or read from it.
    private var lastSyncStored: Double?
    /// Guards the six fields above and the one below.
    private let stateLock = NSLock()
    /// What imports made on the way to an export applied (``exportPending()`` learns this
    /// peer's own published history first): handed on with the next ``importPending()``, or
    /// taken by ``takeImportedMeanwhile()``, so that no imported change goes untold.
    private var importedMeanwhile: ImportReport?

    /// The most logs one import transaction applies (tests make it smaller).
    var batchSize = 500
    /// The most bytes of logs read for one import transaction (tests make it smaller): a
    /// transaction's logs are all read before it begins and held until it ends. The last log read
    /// may pass it (a batch holds one log at least). 500 logs of up to ``LogFile/maximumBytes``
    /// each could take gigabytes; a log of 2,500 items is about 0.5 MB.
    var batchBytes = 32 << 20

    public init(
        store: ObjectStore, layout: CloudLayout, device: String, instance: String? = nil, person: String? = nil,
        policy: any MergePolicy = LastWriterWins(), logger: Logger = .silent
    ) {
        self.store = store
        self.layout = layout
        self.device = device
        self.instance = instance
        self.person = person
        self.policy = policy
        self.logger = logger
    }

    public var peer: String { store.peer }

    /// The time a listing of the cloud folder is made at, in seconds since 1970 (tests move it).
    var folderClock: () -> Double = { Date().timeIntervalSince1970 }

    /// How many peer folders (of logs, baselines and refusal notices) the last import listed,
    /// of how many there are: the others had not changed since an earlier import read them.
    public var listingsAtLastImport: (listed: Int, of: Int) { stateLock.withLock { lastListings } }

    var stateLockedClone: CloneEvidence? { stateLock.withLock { clone } }

    /// The last time the cloud folder was read without trouble, by this process or any other.
    public func lastSync() throws -> Date? {
        let stored = try store.metadata("lastSync").flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        let here = stateLock.withLock { lastImport }
        return [stored, here].compactMap { $0 }.max()
    }

    func setCloneIfFirst(_ evidence: CloneEvidence) {
        stateLock.withLock { if clone == nil { clone = evidence } }
    }

    /// Calls `observer` after every import batch that changed something, with the objects it
    /// inserted, updated and deleted (``ImportedChanges``). On the importing thread.
    public func observeImports(_ observer: @escaping (ImportedChanges) -> Void) {
        importObservers.add(observer)
    }

    func notifyImport(_ changes: ImportedChanges) {
        importObservers.notify(changes)
    }

    // MARK: - Export

    /// Writes every pending save as the next log of this peer. A published file is never
    /// replaced: a crash between writing a log and committing finds that log holding the very
    /// save and marks it exported (nothing lost, nothing doubled); a log holding another save
    /// is this device's past that its store forgot (a restored backup), which is imported back
    /// before the waiting saves are numbered after it.
    ///
    /// Logs are written outside any SQLite transaction, so a slow or hung cloud folder never
    /// holds up a save: the save is committed with its outbox row first, and the row is taken
    /// out in a short transaction once its log is published. Exporters of one device (the app
    /// and a command, or two threads) take turns under an ``ExportLock``, so two saves are
    /// never numbered alike; the holder exports every waiting save, another's too.
    ///
    /// - Returns: how many logs it wrote.
    @discardableResult
    public func exportPending() throws -> Int {
        var written = 0
        // A copy of this device elsewhere writes under the same identity: nothing more under it.
        if let clone = cloneEvidence { throw CloudError.sharedIdentity(seq: clone.seq, device: clone.device) }
        // What decides whether there is anything to do, read in one transaction: an export
        // follows every save, and its reads, a transaction each, were a fifth of its work.
        let outlook = try store.read { db in
            try ExportOutlook(db, seqKey: exportedSeqKey(modelVersion: layout.modelVersion))
        }
        let restarted = try restartNumberingIfIdentityChanged(owner: outlook.owner)
        var isPending = outlook.isPending
        // Never into an epoch a peer has left: that content is deleted, and nobody reads it.
        if isPending, layout.isSuperseded {
            throw CloudError.contentRemoved(epoch: layout.epoch, current: layout.currentEpoch())
        }
        // A store that has never exported may be a new store of a peer that has (a store
        // rebuilt or lost): learn this peer's own logs and baselines first, so that numbering
        // continues after them and what they hold comes back.
        if !outlook.hasExported || restarted,
            !layout.sequenceNumbers(of: peer).isEmpty || !layout.baselineNumbers(of: peer).isEmpty
        {
            try importMeanwhile()
            isPending = try pendingExports() > 0
        }
        guard isPending else { return 0 }
        let lock = try ExportLock.acquire(storePath: store.path)
        defer { lock.release() }
        var attempts = 0
        try numberPastLostOwnLogs()
        defer {
            PublishedMark.raise(
                PublishedMark.key(peer: peer, folder: layout.watermarkFolder), to: (try? watermark(of: peer)) ?? 0,
                storePath: store.path)
        }
        // Each export learns the next waiting save in the transaction that marks its own.
        var next = try store.read { db in try WaitingSave.oldest(db, cloudSync: self) }
        while let waiting = next {
            do {
                next = try export(waiting)
                written += 1
            } catch let ahead as PublishedHistoryAhead where attempts < Self.recoveryAttempts {
                // The store is behind what this device published (restored from a backup,
                // copied from another machine): take its own logs back first, then number the
                // waiting saves after them. Nothing published is replaced, nothing is lost.
                attempts += 1
                let before = try watermark(of: peer)
                try importMeanwhile()
                let after = try watermark(of: peer)
                if after > before {
                    let logs = after == before + 1 ? "log \(after) was" : "logs \(before + 1)–\(after) were"
                    let note =
                        "this device's published history went further than its store remembered (restored from a backup?): its \(logs) imported back, and its new saves follow them"
                    logger.notice("\(note)")
                    tellOnce(HistoryNote(event: "historyRecovered", text: note))
                }
                if after < ahead.seq { try markOwnLogLost(after + 1) }
                next = try store.read { db in try WaitingSave.oldest(db, cloudSync: self) }
            } catch let ahead as PublishedHistoryAhead {
                throw CloudError.ownLogUnreadable(seq: ahead.seq)
            }
        }
        return written
    }

    /// How many times an export takes this device's own logs back before it gives up: each
    /// lost log it numbers past costs one.
    static let recoveryAttempts = 64

    /// Imports for an export, keeping what the import did for whoever reports imports.
    func importMeanwhile() throws {
        let report = try importReadingFolders(forExport: true)
        stateLock.withLock {
            if importedMeanwhile == nil { importedMeanwhile = report } else { importedMeanwhile?.add(report) }
        }
    }

    /// What imports made by exports applied since the last ``importPending()`` (or the last
    /// call of this), and forgets it: for a caller that exported without importing after (a
    /// baseline written by the live watcher), so the changes still reach the screen.
    public func takeImportedMeanwhile() -> ImportReport? {
        stateLock.withLock {
            defer { importedMeanwhile = nil }
            return importedMeanwhile
        }
    }

    /// How many files the last import refused (or found still refused): for a status line
    /// that must not read the cloud folder itself. ``refusedFiles()`` lists them.
    public var refusedAtLastImport: Int { stateLock.withLock { lastRefusals } }

    /// What this device's own history went through since the last call (to tell the user and
    /// journal): recovered after a restore, republished by an audit, a log lost. Emptied.
    public func takeHistoryNotes() -> [HistoryNote] {
        recoveriesLock.withLock {
            defer { recoveries = [] }
            return recoveries
        }
    }

    /// Keeps a note for ``takeHistoryNotes()``.
    func tellOnce(_ note: HistoryNote) {
        recoveriesLock.withLock { if !recoveries.contains(note) { recoveries.append(note) } }
    }

    /// Log numbers belong to one identity: a store whose device took a new one (a copy of its
    /// folder was in use elsewhere) numbers its new identity's logs from 1.
    ///
    /// - Parameter owner: the identity the store last exported under, as the store says now.
    /// - Returns: whether the numbering started over (a store that had exported under another).
    private func restartNumberingIfIdentityChanged(owner: String?) throws -> Bool {
        guard owner != peer else { return false }
        try store.write { db in
            if owner != nil {
                try db.execute(sql: "DELETE FROM \(EngineTables.metadata) WHERE key LIKE 'exportedSeq.%'")
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES ('exportedBy', ?)",
                arguments: [peer])
        }
        return owner != nil
    }

    func exportedSeqKey(modelVersion: Int) -> String { "exportedSeq.v\(modelVersion).epoch\(layout.epoch)" }

    /// Exports one waiting save: the oldest, read under the ``ExportLock``, so no other
    /// exporter changes the numbering meanwhile.
    ///
    /// - Returns: the save waiting after it, read in the transaction that marked this one.
    private func export(_ waiting: WaitingSave) throws -> WaitingSave? {
        let pending = waiting.pending
        let isCurrentVersion = pending.modelVersion == layout.modelVersion
        let versionLayout = isCurrentVersion ? layout : try layout.inModelVersion(pending.modelVersion)
        var seq = waiting.exported + 1
        // This peer's logs may go further than the store remembers exporting: it imported them
        // (a rebuilt store), or a save was written just before a crash.
        if waiting.own >= seq, try isThisSave(pending, at: seq, in: versionLayout) {
            return try markExported(pending, seq: seq)
        }
        if waiting.own >= seq { seq = waiting.own + 1 }
        let url = versionLayout.logURL(peer: peer, seq: seq)
        // A published file is never replaced. One already there is this save (written before
        // a crash), or this device's past that its store does not remember: a restored backup.
        if FileStamp.exists(url) {
            guard try isThisSave(pending, at: seq, in: versionLayout) else { throw PublishedHistoryAhead(seq: seq) }
            return try markExported(pending, seq: seq, own: isCurrentVersion)
        }
        let data = try LogFile.encode(
            try externalizingBlobs(pending.record), layout: versionLayout, peer: peer,
            device: device, seq: seq, instance: instance, person: person)
        try versionLayout.makeFolder(url.deletingLastPathComponent())
        if FaultInjection.isRequested(FaultInjection.midLogWrite) {
            try data.prefix(data.count / 2).write(
                to: url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp"))
            FaultInjection.crash(at: FaultInjection.midLogWrite)
        }
        FaultInjection.stop(at: FaultInjection.beforeLogWrite)
        guard try AtomicFile.create(data, at: url) else {
            // Made by another process of this identity meanwhile: the same question again.
            guard try isThisSave(pending, at: seq, in: versionLayout) else { throw PublishedHistoryAhead(seq: seq) }
            return try markExported(pending, seq: seq, own: isCurrentVersion)
        }
        // Its own logs count as applied: they are never imported back.
        let after = try markExported(pending, seq: seq, own: isCurrentVersion)
        logger.debug("exported log \(seq)")
        return after
    }

    /// Whether this peer's log `seq` holds this very save.
    private func isThisSave(_ pending: Outbox.Pending, at seq: Int64, in versionLayout: CloudLayout) throws -> Bool {
        let log = try? LogFile.read(
            at: versionLayout.logURL(peer: peer, seq: seq), expecting: versionLayout, peer: peer, seq: seq)
        return log?.record.transactionID == pending.record.transactionID
    }

    /// Takes a save out of the outbox as exported under `seq`, in a short transaction of its
    /// own. Numbers only move forward, whatever order exporters finish in.
    ///
    /// - Returns: the save waiting after it, if any.
    private func markExported(_ pending: Outbox.Pending, seq: Int64, own: Bool = false) throws -> WaitingSave? {
        let seqKey = exportedSeqKey(modelVersion: pending.modelVersion)
        return try store.write { db in
            try ChangeHistory.recordExported(sequence: pending.sequence, peer: peer, device: device, person: person, db)
            try Outbox.remove(sequence: pending.sequence, db)
            let exported =
                try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [seqKey])
                .flatMap { Int64($0) } ?? 0
            if seq > exported {
                try db.executeCached(
                    "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)", [seqKey, String(seq)])
            }
            if own, try Watermarks.get(peer, folder: layout.watermarkFolder, db) < seq {
                try Watermarks.set(peer, seq, folder: layout.watermarkFolder, db)
            }
            return try WaitingSave.oldest(db, cloudSync: self)
        }
    }

    /// What an export reads before it decides to take the ``ExportLock``, in one transaction.
    private struct ExportOutlook {
        /// The identity the store last exported under (nil before its first export).
        let owner: String?
        /// Whether a save waits in the outbox (not how many: counting reads the whole outbox).
        let isPending: Bool
        /// Whether the store remembers exporting in this model version and epoch.
        let hasExported: Bool

        init(_ db: Database, seqKey: String) throws {
            let metadata = "SELECT value FROM \(EngineTables.metadata) WHERE key = ?"
            owner = try String.fetchCached(db, metadata, ["exportedBy"])
            isPending = try Bool.fetchCached(db, "SELECT EXISTS (SELECT 1 FROM \(EngineTables.outbox))") ?? false
            hasExported = try String.fetchCached(db, metadata, [seqKey]) != nil
        }
    }

    /// The oldest save waiting to be exported, with the last number exported in its model
    /// version and the last log of this peer the store holds (its own logs count as applied).
    private struct WaitingSave {
        let pending: Outbox.Pending
        let exported: Int64
        let own: Int64

        static func oldest(_ db: Database, cloudSync: CloudSync) throws -> WaitingSave? {
            guard let pending = try Outbox.first(db) else { return nil }
            let seqKey = cloudSync.exportedSeqKey(modelVersion: pending.modelVersion)
            let exported =
                try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [seqKey])
                .flatMap { Int64($0) } ?? 0
            let own =
                pending.modelVersion == cloudSync.layout.modelVersion
                ? try cloudSync.watermark(of: cloudSync.peer, db) : 0
            return WaitingSave(pending: pending, exported: exported, own: own)
        }
    }

    // MARK: - Import

    /// Applies every other peer's logs that are next in line, per peer in order, exactly once.
    /// A missing log holds back that peer only; a bad file is skipped and reported.
    public func importPending() throws -> ImportReport {
        let report = try importReadingFolders()
        guard var total = takeImportedMeanwhile() else { return report }
        total.add(report)
        return total
    }

    /// One import: the peer folders that changed since they were last read.
    ///
    /// - Parameter forExport: an import an export makes while it holds the ``ExportLock``: it
    ///   writes no baseline (which would export, and wait for the lock it holds), so the
    ///   republishing and the audit wait for the next round.
    private func importReadingFolders(forExport: Bool = false) throws -> ImportReport {
        if stateLock.withLock({
            defer { leftoversRemoved = true }
            return !leftoversRemoved
        }) {
            removeLeftovers()
        }
        var report = ImportReport()
        // Every peer folder is stamped; only those that changed since an earlier import read
        // them are listed (departed devices' folders cost a stat each).
        var survey = try survey()
        for refused in refusedMarkers() + unlistableFolders(survey) {
            report.refused.append(refused)
            report.rejected.append(refused.summary)
        }
        // Refusals read once, when any folder is to be listed: each file's is compared with
        // the file as it is now.
        let toList = !survey.baselines.changed.isEmpty || !survey.logsToRead.isEmpty
        let remembered =
            toList
            ? Dictionary(try store.read { db in try RefusedFiles.all(db) }.map { ($0.path, $0) }) { first, _ in first }
            : [:]
        _ = try loadBaselines(into: &report, remembered: remembered, folders: &survey.baselines)
        // Every peer's logs, this one's too: its own are marked applied as they are exported,
        // so they come back only into a store that lost them.
        var listed = survey.baselines.changed.count + survey.refusals.changed.count
        // Where each peer's logs start, read once for the round (after the baselines moved
        // them): a read transaction per peer was a tenth of a live import's work. Another
        // importer of this device going further meanwhile costs nothing: `apply` reads the
        // watermark again in its transaction and skips what is applied.
        let watermarks =
            survey.logsToRead.isEmpty
            ? [:]
            : try store.read { db in try Watermarks.all(folder: layout.watermarkFolder, db) }
        listed += survey.logsToRead.count
        try importLogs(
            of: survey.logsToRead, after: watermarks, into: &report, remembered: remembered, folders: &survey.logs)
        let folders = survey.count
        stateLock.withLock { lastListings = (listed, folders) }
        logger.debug("listed \(listed) of \(folders) peer folders (the others had not changed since they were read)")
        try applyArrivedBlobs(into: &report)
        try publishIfUpgraded()
        if !forExport {
            try republishIfRefusedElsewhere(folders: &survey.refusals)
            // What this device published must still be there for the others (a stat when
            // nothing changed); a failing audit is no failed import.
            do {
                if let note = try auditOwnHistory().note {
                    tellOnce(HistoryNote(event: "historyRepublished", text: note))
                }
            } catch {
                logger.warning("the audit of this device's published files failed: \(ErrorText.reason(error))")
            }
        }
        stateLock.withLock { lastRefusals = report.refused.count }
        // The last time the folder was read without trouble, for other processes (this one
        // answers from memory): written at most once a second when something arrived, once a
        // minute otherwise (the live watcher rescans every few seconds); in the transaction
        // that remembers the listings, not one of its own.
        let now = Date().timeIntervalSince1970
        let arrived = report.appliedLogs > 0 || report.loadedBaselines > 0
        let cached = stateLock.withLock { lastSyncStored }
        let stored = try cached ?? store.metadata("lastSync").flatMap(Double.init) ?? 0
        let writeLastSync = now - stored >= (arrived ? 1 : 60)
        try remember(survey, lastSync: writeLastSync ? now : nil)
        stateLock.withLock {
            lastImport = Date(timeIntervalSince1970: now)
            lastSyncStored = writeLastSync ? now : stored
        }
        return report
    }

    /// Whether this instance has made a full import, and no import an export made waits to be
    /// told: then the logs a watcher names may be imported alone (``importArrivedLogs(_:)``).
    var hasImportedWithNothingUntold: Bool {
        stateLock.withLock { lastImport != nil && importedMeanwhile == nil }
    }

    /// Notes that the cloud folder was read without trouble now, in this process's memory
    /// (``lastSync()``): the store's copy is written by the next full import.
    func noteFolderRead() {
        stateLock.withLock { lastImport = Date() }
    }

    /// The last log applied from a peer.
    public func watermark(of other: String) throws -> Int64 {
        try store.read { db in try watermark(of: other, db) }
    }

    func watermark(of other: String, _ db: Database) throws -> Int64 {
        try Watermarks.get(other, folder: layout.watermarkFolder, db)
    }

    // MARK: - Both

    /// Exports, imports, then publishes this device's digest for others to compare with (not
    /// after every import: it reads the whole store). A digest that cannot be published is no
    /// failure of the sync.
    @discardableResult
    public func sync() throws -> ImportReport {
        try exportPending()
        let report = try importPending()
        do { try publishDigestIfChanged() } catch { logger.warning("digest not published: \(ErrorText.reason(error))") }
        return report
    }

    /// How many saves wait to be exported.
    public func pendingExports() throws -> Int {
        try store.read { db in try Int.fetchCached(db, "SELECT count(*) FROM \(EngineTables.outbox)") ?? 0 }
    }

    /// How many logs are present and not applied yet (this peer's own only after a store lost them).
    public func pendingImports() throws -> Int {
        let survey = try survey()
        var count = 0
        for other in survey.logsToRead {
            let applied = try watermark(of: other)
            count +=
                (numberedEntries(survey.logs.path(other), extension: CloudLayout.logExtension) ?? []).filter {
                    $0 > applied
                }.count
        }
        return count
    }
}
