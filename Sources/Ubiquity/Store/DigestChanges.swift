import CSQLitePreupdate
import Foundation
import GRDB
import GRDBSQLite

/// What a store's digest needs to be computed again after a change, not over the whole store:
/// the bucket hashes of the last digest this process computed, and the buckets every write of
/// this process changed since (docs/decisions/0167).
///
/// SQLite tells which rows a write changes: its pre-update hook, on the writer connection, sees
/// every row inserted, updated or deleted in the tables the digest reads (the entities' and the
/// tombstones'), whatever statement changed it — a save's own changes, the references a merge
/// or a delete repoints, the copies a delete takes along, the tombstones an import writes. An
/// import's new rows are the one exception: the import marks their buckets itself, from the IDs
/// it inserts, and the hook passes over each such row (``inserting(into:id:_:)``). Each
/// write through ``ObjectStore/write(_:)`` reads the change counts (``ChangeCounts``) before and
/// after its body, so that the writes form a chain from the last digest's counts: a digest at
/// later counts rehashes the buckets of the writes on the chain, and reuses the other hashes.
///
/// Anything this process did not see breaks the chain, and the digest is then computed whole:
/// another process's save or import (the counts moved with no write of this process between),
/// a write whose commit failed, a change to the digest's tables that moved no count, an ID
/// whose bucket is not two hex digits. Changes made by another process without moving the
/// counts are not seen at all; none of the engine's does.
final class DigestChanges: @unchecked Sendable {
    /// A committed (or committing) write: its counts before and after, and the buckets it changed.
    private struct Write {
        var number: Int
        var before: ChangeCounts
        var after: ChangeCounts
        var buckets: [Bool]
        var committed: Bool
    }

    /// How many writes are kept between two digests; more, and the next digest is computed whole.
    static let keptWrites = 10_000

    private let lock = NSLock()
    /// Per table the digest reads, the column of its objects' IDs.
    private var idColumns: [String: Int32] = [:]
    /// The last table a row changed in (its name's bytes, NUL-terminated) and its ID column:
    /// an import changes rows of one table after the other, and making a string of the name to
    /// look it up, at every row, was most of the hook's own cost.
    private var lastTable: [CChar] = [0]
    private var lastColumn: Int32?
    /// The last digest's counts and bucket hashes.
    private var base: (counts: ChangeCounts, buckets: [String: String])?
    private var writes: [Write] = []
    private var lastWriteNumber = 0
    /// The buckets the write under way changed so far (256 flags), `nil` outside a write.
    private var touched: [Bool]?
    /// The write under way changed a row whose ID has no bucket of two hex digits.
    private var touchedIrregular = false
    /// The table (its name's bytes, NUL-terminated) of the row an import is inserting, whose
    /// bucket is marked already (``inserting(into:id:_:)``): its insert is not unpacked.
    private var announcedTable: [CChar] = [0]
    private var announcedTableName = ""
    private var announced = false

    // MARK: - Seeing changes (the writer connection)

    /// Installs the pre-update hook on the writer connection.
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = sqlite3_preupdate_hook(
            db.sqliteConnection,
            { context, connection, operation, database, table, _, _ in
                guard let context, let connection, let database, let table, strcmp(database, "main") == 0 else {
                    return
                }
                Unmanaged<DigestChanges>.fromOpaque(context).takeUnretainedValue()
                    .rowWillChange(connection, operation: operation, table: table)
            }, context)
    }

    /// Learns the digest's tables, once the store is migrated.
    func readTables(schema: Schema, _ db: Database) throws {
        var columns: [String: Int32] = [:]
        // One statement for every table: preparing it for each was half of this, at every open.
        let statement = try db.makeStatement(sql: "SELECT cid FROM pragma_table_info(?) WHERE name = ?")
        for (table, column) in schema.entities.map({ ($0.table, "id") }) + [(EngineTables.tombstone, "objectID")] {
            guard let index = try Int32.fetchOne(statement, arguments: [table, column]) else { continue }
            columns[table] = index
        }
        lock.withLock {
            idColumns = columns
            lastTable = [0]
            lastColumn = nil
            announcedTableName = ""
            forgetLocked()
        }
    }

    private func rowWillChange(_ connection: OpaquePointer, operation: Int32, table: UnsafePointer<CChar>) {
        lock.withLock {
            if announced, operation == SQLITE_INSERT, strcmp(table, announcedTable) == 0 {
                // The import's own insert, its bucket marked when it was announced.
                announced = false
                return
            }
            if strcmp(table, lastTable) != 0 {
                lastColumn = idColumns[String(cString: table)]
                lastTable = Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1))
            }
            guard let column = lastColumn else { return }
            guard touched != nil else {
                // A change outside a write this store tracks.
                forgetLocked()
                return
            }
            var value: OpaquePointer?
            if operation != SQLITE_INSERT, sqlite3_preupdate_old(connection, column, &value) == SQLITE_OK {
                touch(value)
            }
            if operation != SQLITE_DELETE, sqlite3_preupdate_new(connection, column, &value) == SQLITE_OK {
                touch(value)
            }
        }
    }

    /// Runs `insert`, an import's insert of one new row into `table` (an entity's) with `id` in
    /// its ID column, marking the ID's bucket here instead of in the pre-update hook: unpacking
    /// the new row to read its ID (`sqlite3_preupdate_new`) was most of the hook's cost at every
    /// row an import inserts. The hook skips the first insert into `table` that follows, the
    /// row's own; every other change (a statement of `insert` failing before its row, another
    /// row, another table, a write not tracked) is seen by the hook as always. A bucket marked
    /// for a row that is not inserted in the end only has its hash computed again.
    func inserting<T>(into table: String, id: String, _ insert: () throws -> T) throws -> T {
        lock.withLock {
            // Outside a tracked write the hook must see the row (and forget what it knows).
            guard touched != nil else { return }
            if table != announcedTableName {
                guard idColumns[table] != nil else { return }
                announcedTableName = table
                announcedTable = Array(table.utf8CString)
            }
            var id = id
            id.withUTF8 { touch(text: $0) }
            announced = true
        }
        defer { lock.withLock { announced = false } }
        return try insert()
    }

    /// Marks the bucket of the ID `value` holds.
    private func touch(_ value: OpaquePointer?) {
        guard let value, sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
            touchedIrregular = true
            return
        }
        touch(text: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }

    /// Marks the bucket of the ID whose text is `text` (its first two bytes, hex digits).
    private func touch(text: UnsafeBufferPointer<UInt8>) {
        guard text.count >= 2, let high = Self.hexValue(text[0]), let low = Self.hexValue(text[1]) else {
            touchedIrregular = true
            return
        }
        touched?[Int(high * 16 + low)] = true
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - Writes

    /// What a write left to do once its transaction is committed.
    enum Noted {
        case nothing
        /// The write noted under this number, to confirm.
        case write(Int)
        /// Forget everything (``forget()``): the write changed the data in a way no digest can
        /// build on, and a digest computed while it was being committed must not be kept.
        case forget
    }

    /// Runs a write's body in its transaction, noting its counts and the buckets it changed.
    /// The counts are read only while there is a digest to build on: a store whose digest is
    /// never computed (no cloud) pays for the hook alone.
    func track<T>(_ db: Database, _ body: (Database) throws -> T) throws -> (T, Noted) {
        let building = lock.withLock { () -> Bool in
            touched = [Bool](repeating: false, count: 256)
            touchedIrregular = false
            return base != nil
        }
        defer { lock.withLock { touched = nil } }
        let before = building ? try Outbox.changeCounts(db) : nil
        let result = try body(db)
        let after = building ? try Outbox.changeCounts(db) : nil
        let noted = lock.withLock { () -> Noted in
            let buckets = touched ?? []
            let changedData = touchedIrregular || buckets.contains(true)
            guard let before, let after else {
                // Not counted: a digest computed meanwhile cannot tell whether it holds this write.
                return changedData ? .forget : .nothing
            }
            if touchedIrregular || (changedData && before == after) { return .forget }
            guard before != after, base != nil else { return .nothing }
            guard writes.count < Self.keptWrites else { return .forget }
            lastWriteNumber += 1
            writes.append(
                Write(number: lastWriteNumber, before: before, after: after, buckets: buckets, committed: false))
            return .write(lastWriteNumber)
        }
        if case .forget = noted { forget() }
        return (result, noted)
    }

    /// Does what the write left to do, once its transaction is committed.
    func committed(_ noted: Noted) {
        switch noted {
        case .nothing: break
        case .write(let number):
            lock.withLock {
                if let index = writes.firstIndex(where: { $0.number == number }) { writes[index].committed = true }
            }
        case .forget: forget()
        }
    }

    /// Forgets everything: the next digest is computed whole. For a write that may or may not
    /// have been committed.
    func forget() {
        lock.withLock { forgetLocked() }
    }

    private func forgetLocked() {
        base = nil
        writes = []
    }

    // MARK: - Digests

    /// What the digest at `counts` (read in the digest's own transaction) can reuse: the last
    /// digest's bucket hashes and the buckets to compute again, or `nil` when it must be
    /// computed whole.
    func reusable(at counts: ChangeCounts) -> (buckets: [String: String], changed: Set<String>)? {
        lock.withLock {
            guard let base else { return nil }
            var current = base.counts
            var changed = [Bool](repeating: false, count: 256)
            while current != counts {
                let next = writes.filter { $0.before == current }
                guard next.count == 1, let write = next.first, write.committed,
                    write.after.saves <= counts.saves, write.after.imports <= counts.imports
                else { return nil }
                for index in changed.indices where write.buckets[index] { changed[index] = true }
                current = write.after
            }
            return (base.buckets, Set(changed.indices.filter { changed[$0] }.map(Self.bucketName)))
        }
    }

    /// Keeps the bucket hashes of the digest at `counts`, for the next one; a digest computed
    /// meanwhile at later counts is kept instead.
    func remember(_ buckets: [String: String], at counts: ChangeCounts) {
        lock.withLock {
            if let base, base.counts.saves >= counts.saves, base.counts.imports >= counts.imports, base.counts != counts
            {
                return
            }
            base = (counts, buckets)
            writes.removeAll { write in
                write.committed && write.after.saves <= counts.saves && write.after.imports <= counts.imports
            }
        }
    }

    /// "00" … "ff".
    private static func bucketName(_ index: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[index / 16], digits[index % 16]])
    }
}
