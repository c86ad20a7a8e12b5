import Foundation
import GRDB
import TextAndFiles

/// Large binary values (item photos) travel as content-addressed files beside the logs,
/// `<epoch>/blobs/<sha256>.blob`, written once by whichever peer has them first; a log carries
/// only the hash. A value whose blob has not arrived waits on its own (in
/// `ubiquity_pending_blob`) and is applied, with its clock, when the file lands.
extension CloudSync {
    /// Values at least this large go to blob files.
    static let blobThreshold = 1024

    var blobsFolder: URL { layout.epochFolder.appendingPathComponent("blobs", isDirectory: true) }

    func blobURL(_ hash: String) -> URL { blobsFolder.appendingPathComponent(hash + ".blob") }

    /// The record as it goes into a log: large data values written as blobs, replaced by hashes.
    func externalizingBlobs(_ record: TransactionRecord) throws -> TransactionRecord {
        func convert(_ change: ObjectChange) throws -> ObjectChange {
            var change = change
            for (property, value) in change.values {
                guard case .data(let data) = value, data.count >= Self.blobThreshold else { continue }
                let hash = SHA256.hex(data)
                let url = blobURL(hash)
                if !FileManager.default.fileExists(atPath: url.path) {
                    try layout.makeFolder(blobsFolder)
                    try AtomicFile.write(data, to: url)
                }
                change.values[property] = .blob(hash)
            }
            return change
        }
        return TransactionRecord(
            transactionID: record.transactionID, timestamp: record.timestamp, author: record.author,
            inserted: try record.inserted.map(convert), updated: try record.updated.map(convert),
            deleted: record.deleted, merged: record.merged, clock: record.clock)
    }

    /// The record with every blob whose file is here (and whole) turned back into data.
    func resolvingBlobs(_ record: TransactionRecord) -> TransactionRecord {
        func convert(_ change: ObjectChange) -> ObjectChange {
            var change = change
            for (property, value) in change.values {
                if case .blob(let hash) = value, let data = readBlob(hash) { change.values[property] = .data(data) }
            }
            return change
        }
        return TransactionRecord(
            transactionID: record.transactionID, timestamp: record.timestamp, author: record.author,
            inserted: record.inserted.map(convert), updated: record.updated.map(convert),
            deleted: record.deleted, merged: record.merged, clock: record.clock)
    }

    /// The largest blob read, in bytes; a larger file is left unread, its value waiting.
    static let maximumBlobBytes = 64 << 20

    /// A blob's bytes, if its file is here, a regular file of at most ``maximumBlobBytes``, and
    /// matches its hash.
    func readBlob(_ hash: String) -> Data? {
        let url = blobURL(hash)
        guard case .success(let stamp) = FileStamp.of(url), stamp.size <= Self.maximumBlobBytes,
            let data = try? Data(contentsOf: url), SHA256.hex(data) == hash
        else { return nil }
        return data
    }

    /// Applies the waiting values whose blobs have arrived; reports the others.
    func applyArrivedBlobs(into report: inout ImportReport) throws {
        let pending = try store.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT objectID, entity, property, hash, clock FROM \(EngineTables.pendingBlob)"))
        }
        for row in pending {
            let hash: String = row[3]
            guard let data = readBlob(hash), let id = GlobalID(row[0] as String), let clock = HLC(row[4] as String)
            else {
                report.waiting.append("waiting for blob \(hash.prefix(12))… of \(row[1] as String) \(row[0] as String)")
                continue
            }
            let object = ObjectID(entity: row[1], id: id)
            let property: String = row[2]
            let changes = try store.write { db -> ImportedChanges in
                try db.execute(
                    sql: "DELETE FROM \(EngineTables.pendingBlob) WHERE objectID = ? AND property = ?",
                    arguments: [id.description, property])
                var changes = ImportedChanges()
                try Merger(schema: store.schema, policy: policy, db: db)
                    .merge(object, properties: [property: (.data(data), clock)], into: &changes)
                try Outbox.countImport(db)
                return changes
            }
            report.changes.formUnion(changes)
            if !changes.isEmpty { notifyImport(changes) }
        }
    }
}
