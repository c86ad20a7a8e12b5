import Foundation
import GRDB
import TextAndFiles

/// Moving a store's content elsewhere: into another store (the fallback store's records into
/// the cloud store), or out of the sync engine altogether (`cloud disable`).
extension ObjectStore {
    /// Whether `path` is a store of this engine (an SQLite file with the engine's tables), read
    /// without changing it.
    public static func isStore(at path: String) -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { db in try db.tableExists(EngineTables.outbox) && db.tableExists("grdb_migrations") })
            ?? false
    }

    /// Every object, entity by entity: what a copy carries.
    public func allObjects() throws -> [(object: ObjectID, values: [String: PropertyValue])] {
        try read { db in
            var objects: [(ObjectID, [String: PropertyValue])] = []
            for entity in schema.entities {
                for id in try GlobalID.fetchAll(
                    db, sql: "SELECT id FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id")
                {
                    if let values = try RowWriter.values(entity, id: id, db) {
                        objects.append((ObjectID(entity: entity.name, id: id), values))
                    }
                }
            }
            return objects
        }
    }

    /// Copies every object of `source` into this store in one save, keeping global IDs: an
    /// object this store lacks is inserted (unless it deleted it), one it has takes the
    /// source's values. Only
    /// properties both stores' schemas declare are copied. Copying twice changes nothing the
    /// second time, so a copy interrupted before its source was removed can simply run again.
    ///
    /// - Returns: how many objects were inserted or changed.
    @discardableResult
    public func copyObjects(from source: ObjectStore, author: String) throws -> Int {
        let objects = try source.allObjects()
        return try save(author: author) { context in
            var count = 0
            for (object, values) in objects {
                // Deleted here since an earlier copy: a delete is final.
                guard let entity = schema.entity(named: object.entity), try !context.isDeleted(object.id) else {
                    continue
                }
                let shared = values.filter { entity.type(of: $0.key) != nil }
                if try context.values(of: object.entity, id: object.id) == nil {
                    try context.insert(object.entity, id: object.id, values: shared)
                    count += 1
                } else if try context.update(object.entity, id: object.id, values: shared) {
                    count += 1
                }
            }
            return count
        }
    }

    /// Writes a copy of the store at `url` with no trace of syncing (Core Data's
    /// `NSPersistentStoreRemoveUbiquitousMetadataOption`): the same objects, but no outbox, no
    /// clocks or tombstones, no watermarks, no cloud facts. Written to a temp file and renamed,
    /// so `url` holds either its old file or the whole copy; a copy that fails (a full disk)
    /// leaves nothing behind and is told as the store's error (``StoreError/diskFull(folder:)``).
    ///
    /// - Parameter keptMetadata: the app's own metadata keys that the copy keeps (the version
    ///   the store was created at is always kept).
    public func writePlainCopy(to url: URL, keepingMetadata keptMetadata: [String] = []) throws {
        let manager = FileManager.default
        let temp = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? manager.removeItem(atPath: temp.path + suffix) }
        }
        try writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [temp.path])
        }
        do {
            try stripSyncing(temp, keepingMetadata: keptMetadata)
        } catch {
            throw Self.translated(error, storePath: url.path)
        }
        for suffix in ["-wal", "-shm"] { try? manager.removeItem(atPath: url.path + suffix) }
        if rename(temp.path, url.path) != 0 {
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes every trace of syncing from the copy at `temp`.
    private func stripSyncing(_ temp: URL, keepingMetadata keptMetadata: [String]) throws {
        let copy = try DatabaseQueue(path: temp.path)
        defer { try? copy.close() }
        try copy.write { db in
            for table in [
                EngineTables.outbox, EngineTables.unheldClocks, EngineTables.tombstone, EngineTables.peerState,
                EngineTables.pendingBlob, EngineTables.folderScan,
            ] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            for entity in schema.entities {
                try db.execute(
                    sql: "UPDATE \(entity.table.quotedDatabaseIdentifier) SET \(EngineTables.clockColumn) = NULL")
            }
            // Only what the store itself needs survives: the version it was created at, and the
            // app's keys (whether it had its default data).
            let kept = ["createdAtVersion"] + keptMetadata
            try db.execute(
                sql:
                    "DELETE FROM \(EngineTables.metadata) WHERE key NOT IN (\(kept.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(kept))
            // The index of unique keys needs the engine's SQL function to write: the copy is for
            // any SQLite tool (the engine makes it again when it opens the copy as a store).
            try UniqueKeyIndex.drop(db)
        }
        try copy.close()
    }
}
