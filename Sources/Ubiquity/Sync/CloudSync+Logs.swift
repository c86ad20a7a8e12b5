import Foundation
import GRDB
import Logging

/// Importing peers' logs: each peer's in order from its watermark, in batches; the first batch
/// of every peer with new logs in one transaction.
extension CloudSync {
    /// A peer's logs as a round listed them, and where its import stands.
    struct PeerLogs {
        let peer: String
        /// The highest log number present.
        let newest: Int64
        let present: Set<Int64>
        /// The last log applied.
        var applied: Int64
        /// The logs read for the next transaction, in order.
        var batch: [LogFile] = []
        /// Whether the batch ended at its size (rather than at a gap, a refused log or the end).
        var isFull = false
        /// The log that could not be read or broke the schema's rules, which ended the batch.
        var refusal: RefusedFile?
    }

    /// What applying a batch did.
    struct AppliedBatch {
        var changes: ImportedChanges
        /// The last log applied (the watermark before, when none was).
        var last: Int64
        /// How many logs this transaction applied: not those another importer of this device
        /// applied since this one read the watermarks.
        var count: Int
        /// The log the store refused, which stopped the batch.
        var refusal: RefusedFile?
    }

    /// Imports the new logs of `peers` (their folders changed since they were last read).
    ///
    /// The peers' first batches are applied in one transaction, of ``batchSize`` logs and about
    /// ``batchBytes`` in all at most: a live round brings a log or two from each of several
    /// peers, and a transaction each was a commit (a sync of the log to disk) each, while other
    /// processes were syncing too. A peer with more goes on in transactions of its own.
    func importLogs(
        of peers: [String], after watermarks: [String: Int64], into report: inout ImportReport,
        remembered: [String: RefusedFile], folders: inout PeerFolders
    ) throws {
        var listed: [PeerLogs] = []
        var budget = batchSize
        var bytes = batchBytes
        for other in peers {
            guard let numbers = numberedEntries(folders.path(other), extension: CloudLayout.logExtension) else {
                folders.forget(other)
                continue
            }
            guard let newest = numbers.max() else {
                folders.remember(other, newest: 0)
                continue
            }
            var logs = PeerLogs(peer: other, newest: newest, present: Set(numbers), applied: watermarks[other] ?? 0)
            bytes -= readBatch(&logs, upTo: budget, bytes: bytes, remembered: remembered)
            budget -= logs.batch.count
            listed.append(logs)
        }
        // No transaction for a round that read nothing (a folder changed by a temporary file).
        let applied = listed.allSatisfy(\.batch.isEmpty) ? listed.map { _ in nil } : try applyInOneTransaction(listed)
        for (index, result) in applied.enumerated() {
            var logs = listed[index]
            // Remembered as listed; done with once every log in it is applied.
            defer { folders.remember(logs.peer, newest: logs.newest, isDone: logs.applied >= logs.newest) }
            var more = tell(result, of: &logs, into: &report)
            while more {
                readBatch(&logs, upTo: batchSize, bytes: batchBytes, remembered: remembered)
                let result = logs.batch.isEmpty ? nil : try applyInOneTransaction([logs])[0]
                more = tell(result, of: &logs, into: &report)
            }
        }
    }

    /// Reads the peer's next logs, `size` at most, stopping at a gap or a refused log, or once
    /// `bytes` of them are read.
    ///
    /// - Returns: the bytes read (the logs' payloads).
    @discardableResult
    private func readBatch(_ logs: inout PeerLogs, upTo size: Int, bytes: Int, remembered: [String: RefusedFile]) -> Int
    {
        logs.batch = []
        logs.refusal = nil
        // No room at all (the round's shared transaction is full): the peer goes on in one of its own.
        logs.isFull = size == 0 || bytes <= 0
        var read = 0
        var next = logs.applied + 1
        reading: while logs.present.contains(next) {
            guard logs.batch.count < size, read < bytes else {
                logs.isFull = true
                break
            }
            switch readCheckedLog(of: logs.peer, seq: next, remembered: remembered) {
            case .success(let log):
                logs.batch.append(log)
                read += log.header.length
            case .failure(let refused):
                logs.refusal = refused
                break reading
            }
            next += 1
        }
        if logs.peer == peer { noticeClone(in: logs.batch) }
        return read
    }

    /// Tells what a batch did (the report, the observers, the log), once it is committed.
    ///
    /// - Returns: whether more of the peer's logs wait for another batch.
    func tell(_ result: AppliedBatch?, of logs: inout PeerLogs, into report: inout ImportReport) -> Bool {
        var refusal = logs.refusal
        if let result {
            if let storeRefusal = result.refusal {
                refusal = storeRefusal
                noticeRefusal(storeRefusal)
            }
            report.appliedLogs += result.count
            logs.applied = max(logs.applied, result.last)
            report.changes.formUnion(result.changes)
            if !result.changes.isEmpty {
                report.devices.formUnion(logs.batch.filter { $0.header.seq <= result.last }.map(\.header.device))
                notifyImport(result.changes)
            }
            logger.info(
                "imported logs up to \(result.last) from peer \(logs.peer): \(result.changes.count) object(s) changed")
        }
        if let refusal {
            report.refused.append(refusal)
            report.rejected.append(refusal.summary)
            logger.warning("refused \(refusal.summary); later logs of that peer wait")
            return false
        }
        if !logs.isFull {
            if logs.applied < logs.newest, !logs.present.contains(logs.applied + 1) {
                report.waiting.append("waiting for log \(logs.applied + 1) from peer \(logs.peer)")
                report.awaitedLogs.insert("\(logs.peer)/\(CloudLayout.logName(logs.applied + 1))")
            }
            return false
        }
        return logs.applied < logs.newest
    }

    /// A log the store could not take, found part-way through a transaction applied without
    /// savepoints: the transaction is rolled back.
    private struct PartlyAppliedLog: Error {}

    /// Applies the peers' batches in one transaction: first each log straight into the store;
    /// should one fail part-way, everything again with a savepoint around each log.
    ///
    /// A savepoint makes SQLite copy each page a log changes, the first time the log changes it,
    /// into a statement journal: a log of new objects with random IDs changes a page of nearly
    /// every leaf of the ID indexes, so an import wrote those indexes out again at every log
    /// (a temporary file of 14 MB for 200,000 changes) to be able to undo a log that almost
    /// never needs it. A log refused when read never reaches the transaction; one the store
    /// cannot take (a value its constraints refuse, a check that needs the store) is rare
    /// enough to pay for the transaction twice.
    ///
    /// The commit does not wait for the disk (``ObjectStore/writeUnsynced(_:)``): the logs stay
    /// in the cloud folder, and the watermarks that say what was applied are in the same
    /// transaction, so one lost in a power cut is applied again by the next import. Nothing of
    /// this device's own rides in it (no outbox row: an import records no save). Its sync was
    /// the longest step of a live round under load, and a change waited for it to be seen.
    func applyInOneTransaction(_ listed: [PeerLogs]) throws -> [AppliedBatch?] {
        func applyAll(savepoints: Bool) throws -> [AppliedBatch?] {
            try store.writeUnsynced { db in
                let applied = try listed.map { logs in
                    logs.batch.isEmpty ? nil : try apply(logs.batch, from: logs.peer, savepoints: savepoints, db)
                }
                FaultInjection.crash(at: FaultInjection.midImport)
                return applied
            }
        }
        let applied: [AppliedBatch?]
        do {
            applied = try applyAll(savepoints: false)
        } catch is PartlyAppliedLog {
            applied = try applyAll(savepoints: true)
        }
        FaultInjection.crash(at: FaultInjection.afterImport)
        return applied
    }

    /// Applies a batch of one peer's logs in `db`'s transaction. With `savepoints`, each log
    /// inside one: a log that fails the checks that need the store, or the store's constraints,
    /// is refused whole, and the ones before it stay applied. Without, such a log throws
    /// ``PartlyAppliedLog``: the transaction must be rolled back.
    ///
    /// - Returns: what changed, the last log applied, and the refusal that stopped the batch.
    private func apply(_ batch: [LogFile], from other: String, savepoints: Bool, _ db: Database) throws -> AppliedBatch
    {
        // Another importer of this device (the app and a command) may have gone further
        // meanwhile: skip what it applied, never move the watermark back.
        let current = try Watermarks.get(other, folder: layout.watermarkFolder, db)
        let merger = Merger(schema: store.schema, policy: policy, db: db, digestChanges: store.digestChanges)
        let now = store.clock.now()
        try ChangeHistory.prune(now: now, db)
        let pending = batch.filter { $0.header.seq > current }
        var changes = ImportedChanges()
        changes.reserveCapacity(
            inserted: pending.reduce(0) { $0 + $1.record.inserted.count },
            updated: pending.reduce(0) { $0 + $1.record.updated.count })
        var last = current
        var refusal: RefusedFile?
        for log in pending {
            do {
                func applyLog() throws -> ImportedChanges {
                    let checked = try merger.check(log.record)
                    let applied = try merger.apply(resolvingBlobs(log.record), from: other, checked: checked)
                    // Its own logs are in the history already, from its saves.
                    if other != peer {
                        try ChangeHistory.recordImported(log, peer: other, db)
                    }
                    try LocalClock.observe(Merger.reading(of: log.record, from: other), now: now, peer: peer, db)
                    if other != peer {
                        try ClocksAhead.note(
                            writtenAt: log.record.timestamp, peer: other, device: log.header.device,
                            file: "log \(log.header.seq)", now: now, db)
                    }
                    return applied
                }
                var applied = ImportedChanges()
                if savepoints {
                    try db.inSavepoint {
                        applied = try applyLog()
                        return .commit
                    }
                } else {
                    applied = try applyLog()
                }
                changes.formUnion(applied)
                last = log.header.seq
            } catch let violation as RuleViolation {
                refusal = refused(log, reason: violation.reason)
            } catch let error as DatabaseError where Self.isRefusal(error) {
                refusal = refused(log, reason: "the store cannot take it: \(error.message ?? error.description)")
            }
            if let refusal {
                guard savepoints else { throw PartlyAppliedLog() }
                try RefusedFiles.record(refusal, db)
                break
            }
        }
        if last > current {
            try Watermarks.set(other, last, folder: layout.watermarkFolder, db)
            try Outbox.countImport(db)
        }
        // The logs after `current` are applied in order until a refusal: `last - current` of them.
        return AppliedBatch(changes: changes, last: last, count: Int(last - current), refusal: refusal)
    }

    /// Errors that say a log's content does not fit the store (not that the store is busy or
    /// the disk full, which are the device's problems and are reported as such).
    static func isRefusal(_ error: DatabaseError) -> Bool {
        [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
    }

    private func refused(_ log: LogFile, reason: String) -> RefusedFile {
        let url = layout.logURL(peer: log.header.peer, seq: log.header.seq)
        let stamp = (try? FileStamp.of(url).get()) ?? FileStamp(size: -1, modified: 0)
        return RefusedFile(
            path: layout.relativePath(url), kind: .log, peer: log.header.peer, seq: log.header.seq,
            device: log.header.device, reason: reason, size: stamp.size, modified: stamp.modified,
            refusedAt: Date())
    }

    /// Reads a peer's log and checks it against the schema's rules — or the refusal, read from
    /// what is remembered when the file has not changed since it was refused.
    func readCheckedLog(of other: String, seq: Int64, remembered: [String: RefusedFile]) -> Result<
        LogFile, RefusedFile
    > {
        let url = layout.logURL(peer: other, seq: seq)
        let path = layout.relativePath(url)
        // A link, folder or vanished file has no stamp: never remembered, refused again (by a
        // stat and an open, nothing read) each time.
        let stamp = (try? FileStamp.of(url).get()) ?? FileStamp(size: -1, modified: 0)
        if let refused = remembered[path], refused.isUnchanged(stamp) { return .failure(refused) }
        var device: String?
        let reason: String
        // Whether the writer should hear of it: the file is whole and wrong, not a copy that
        // may still be arriving, nor a file whose header says nothing of who wrote it.
        var tellWriter = false
        do {
            let log = try LogFile.read(at: url, expecting: layout, peer: other, seq: seq)
            device = log.header.device
            do {
                try store.schema.check(log.record)
            } catch {
                tellWriter = true
                throw error
            }
            return .success(log)
        } catch let failure as LogFileFailure {
            device = failure.header.device
            reason = failure.error.description
            tellWriter = !failure.error.mayBeInTransit && failure.error != .foreign
        } catch {
            reason = "\(error)"
        }
        let refusal = RefusedFile(
            path: path, kind: .log, peer: other, seq: seq, device: device, reason: reason,
            size: stamp.size, modified: stamp.modified, refusedAt: Date())
        try? store.write { db in try RefusedFiles.record(refusal, db) }
        if tellWriter { noticeRefusal(refusal) }
        return .failure(refusal)
    }
}
