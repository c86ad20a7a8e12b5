import Foundation

/// Importing just the logs a folder watcher saw arrive, without surveying the cloud folder.
extension CloudSync {
    /// Imports the logs named in `files` (paths under the logs folder, "peer/0000000012.gdlog",
    /// as ``FolderWatcher`` tells them) when each is next in line for its peer: of a peer, the
    /// named logs after its watermark must follow it without a gap. A live round under a stream
    /// of saves spent most of its time surveying and listing every peer's folder to find the one
    /// log the watcher had named already.
    ///
    /// Nothing is skipped and nothing applied twice: anything this cannot take whole — a gap, a
    /// log that cannot be read or is refused, this instance not having made a full import yet,
    /// an import an export made that is still untold — returns nil before anything is applied,
    /// and the caller makes a full import (``importPending()``), which finds everything as it
    /// would have. A log the store refuses inside the transaction is reported as a full import
    /// reports it, the logs before it applied. The transaction reads
    /// the watermark again and applies only what is after it, as a full import's does. This
    /// device's own logs are left out: they are marked applied by the export that wrote them.
    /// What a full import does besides (exports to retry, blobs, refusals elsewhere, the audit,
    /// `lastSync` in the store) waits for the next one, which the caller makes from time to time.
    ///
    /// - Returns: what was applied (nothing, when every log named was applied already), or nil
    ///   when a full import is needed.
    func importArrivedLogs(_ files: [String]) throws -> ImportReport? {
        guard hasImportedWithNothingUntold, cloneEvidence == nil else { return nil }
        var named: [String: [Int64]] = [:]
        for file in files {
            // Only a peer's log is ever imported from the logs folder; a full import passes over
            // any other name too: a sync engine's temporary or conflict copy (a log written under
            // another name is told again by its own when it is moved there), the close of a file
            // with no name yet ("#<inode>", an ``AtomicFile`` being written), a folder's files.
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, HLC.isPeerName(String(parts[0])),
                let seq = CloudLayout.seq(ofLogNamed: String(parts[1]))
            else { continue }
            let other = String(parts[0])
            if other == peer { continue }
            named[other, default: []].append(seq)
        }
        var report = ImportReport()
        guard !named.isEmpty else { return report }
        let watermarks = try store.read { db in try Watermarks.all(folder: layout.watermarkFolder, db) }
        var listed: [PeerLogs] = []
        for (other, numbers) in named.sorted(by: { $0.key < $1.key }) {
            let applied = watermarks[other] ?? 0
            let next = Set(numbers).filter { $0 > applied }.sorted()
            guard !next.isEmpty else { continue }
            guard next.first == applied + 1, next.last == applied + Int64(next.count), next.count <= batchSize else {
                return nil
            }
            var logs = PeerLogs(peer: other, newest: next.last!, present: Set(next), applied: applied)
            for seq in next {
                guard case .success(let log) = readCheckedLog(of: other, seq: seq, remembered: [:]) else { return nil }
                logs.batch.append(log)
            }
            listed.append(logs)
        }
        guard !listed.isEmpty else { return report }
        let results = try applyInOneTransaction(listed)
        for (index, result) in results.enumerated() {
            var logs = listed[index]
            _ = tell(result, of: &logs, into: &report)
        }
        noteFolderRead()
        return report
    }
}
