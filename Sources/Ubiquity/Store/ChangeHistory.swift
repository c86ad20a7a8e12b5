import Foundation
import GRDB

/// What happened to each object, as this device learned it: every save of its own and every
/// log it imported, with when it was made (its clock reading), by which peer, device and person,
/// and the transaction record itself (the JSON a log holds: photos travel as content hashes and
/// are not kept here). Local, never synced: baselines carry none, so a device that joins late
/// knows the history from the logs still in the folder onward. Rows older than ``retention``
/// go at imports.
///
/// A save costs nothing here: its record waits in the outbox, which is its history until it is
/// exported, and the transaction that takes it out of the outbox moves its bytes into this table
/// (``recordExported(sequence:peer:device:person:_:)``). An imported log adds the bytes it was
/// read from. One row a record, appended at the end of a table without secondary indexes;
/// reading an object's history scans the table for its ID (SQLite's `instr` on the bytes) and
/// decodes only the rows that name it — a command a person runs now and then, not a save's cost.
public enum ChangeHistory {
    static let table = "ubiquity_history"
    /// How long history is kept, by the changes' own times.
    public static let retention: TimeInterval = 90 * 86_400

    /// One change of one object.
    public struct Entry: Equatable, Sendable {
        public enum Kind: String, Sendable { case insert, update, delete, merge }

        public let object: ObjectID
        public let kind: Kind
        /// When the change was made, by its clock reading (not when it arrived).
        public let at: Date
        public let clock: HLC?
        public let peer: String
        /// The device and person its log named (this device's own for its saves); `nil` when
        /// a log of an earlier build named no person.
        public let device: String?
        public let person: String?
        /// The command that made it ("item edit"; "default data" for the data every device
        /// ships with).
        public let author: String
        /// The values it wrote (an insert's, an update's changed ones).
        public let values: [String: PropertyValue]
        /// For a merge: the copy it was merged into.
        public let mergedInto: GlobalID?
    }

    /// The engine migration `ubiquity-v8`: the history's table.
    static func create(_ db: Database) throws {
        try db.create(table: table) { t in
            // When it was made, in milliseconds: what ``prune(now:_:)`` goes by.
            t.column("wall", .integer).notNull()
            t.column("peer", .text).notNull()
            t.column("device", .text)
            t.column("person", .text)
            t.column("payload", .blob).notNull()
        }
    }

    /// Moves an exported save's record from the outbox row numbered `sequence` into the history,
    /// in the transaction that removes the row.
    static func recordExported(sequence: Int64, peer: String, device: String, person: String?, _ db: Database) throws {
        try db.executeCached(
            """
            INSERT INTO \(table) (wall, peer, device, person, payload)
            SELECT CAST(timestamp * 1000 AS INTEGER), ?, ?, ?, payload FROM \(EngineTables.outbox) WHERE seq = ?
            """,
            binding: [peer.databaseValue, device.databaseValue, person?.databaseValue ?? .null, sequence.databaseValue])
    }

    /// Records a log imported from `peer`, with the bytes it was read from: one row a log, the
    /// bytes handed to SQLite where they lie (not copied into a value first).
    static func recordImported(_ log: LogFile, peer: String, _ db: Database) throws {
        let record = log.record
        let wall = record.clock?.wall ?? Int64(record.timestamp.timeIntervalSince1970 * 1000)
        try db.executeCached(
            "INSERT INTO \(table) (wall, peer, device, person, payload) VALUES (?, ?, ?, ?, ?)",
            binding: [
                wall.databaseValue, peer.databaseValue,
                log.header.device.databaseValue, log.header.person?.databaseValue ?? .null,
            ], borrowing: log.payload)
    }

    /// The entries of every recorded change, and of the saves still in the outbox (as
    /// `own`'s), in the order the changes were made (by clock reading, then as recorded), of the
    /// objects `wanted` accepts. With `naming`, only the records whose bytes hold one of those
    /// texts (objects' IDs) are decoded.
    static func entries(
        where wanted: (ObjectID) -> Bool, naming texts: [String]? = nil,
        own: (peer: String, device: String?, person: String?), _ db: Database
    ) throws -> [Entry] {
        var found: [(Entry, Int)] = []
        let filter =
            texts.map { texts in
                " WHERE " + texts.map { _ in "instr(payload, CAST(? AS BLOB)) > 0" }.joined(separator: " OR ")
            } ?? ""
        let arguments = StatementArguments(texts ?? [])
        let recorded = try Row.fetchCursor(
            db, sql: "SELECT peer, device, person, payload FROM \(table)\(filter) ORDER BY rowid", arguments: arguments)
        while let row = try recorded.next() {
            add(row["payload"], peer: row["peer"], device: row["device"], person: row["person"])
        }
        let waiting = try Data.fetchCursor(
            db, sql: "SELECT payload FROM \(EngineTables.outbox)\(filter) ORDER BY seq", arguments: arguments)
        while let payload = try waiting.next() {
            add(payload, peer: own.peer, device: own.device, person: own.person)
        }

        func add(_ payload: Data?, peer: String, device: String?, person: String?) {
            guard let payload, let record = try? TransactionRecord(jsonData: payload) else { return }
            let at = Date(
                timeIntervalSince1970: record.clock.map { Double($0.wall) / 1000 }
                    ?? record.timestamp.timeIntervalSince1970)
            let order = found.count
            func add(_ object: ObjectID, _ kind: Entry.Kind, _ values: [String: PropertyValue], into: GlobalID? = nil) {
                guard wanted(object) else { return }
                let kept = values.filter {
                    switch $0.value {
                    case .data, .blob: false
                    default: true
                    }
                }
                let entry = Entry(
                    object: object, kind: kind, at: at, clock: record.clock, peer: peer, device: device,
                    person: person, author: record.author, values: kept, mergedInto: into)
                found.append((entry, order))
            }
            for change in record.inserted { add(change.object, .insert, change.values) }
            for change in record.updated { add(change.object, .update, change.values) }
            let merged = Set(record.merged.map(\.object))
            for merge in record.merged { add(merge.object, .merge, merge.chosen, into: merge.into) }
            for object in record.deleted where !merged.contains(object) { add(object, .delete, [:]) }
        }
        return found.sorted { a, b in
            if a.0.clock != b.0.clock, let first = a.0.clock, let second = b.0.clock { return first < second }
            if a.0.at != b.0.at { return a.0.at < b.0.at }
            return a.1 < b.1
        }.map(\.0)
    }

    /// Copies the history of the store file at `source` into the one at `target` (a rebuild:
    /// the new store knows only what the cloud folder still holds), leaving out what `target`
    /// has already (the logs it imported itself: the same bytes).
    public static func copy(from source: URL, into target: URL) throws {
        let queue = try DatabaseQueue(path: target.path)
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS kept", arguments: [source.path])
            defer { try? db.execute(sql: "DETACH DATABASE kept") }
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM kept.sqlite_master WHERE name = ?)", arguments: [table])
                    == true
            else { return }
            try db.inTransaction {
                let columns = "wall, peer, device, person, payload"
                try db.execute(
                    sql: """
                        INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM kept.\(table)
                        WHERE payload NOT IN (SELECT payload FROM main.\(table))
                        ORDER BY rowid
                        """)
                return .commit
            }
        }
    }

    /// Forgets what is older than ``retention`` by `now`, a thousand rows at a time: looked for
    /// only when the first row recorded is that old (one read), as rows arrive about in the
    /// order their changes were made.
    static func prune(now: Date, _ db: Database) throws {
        let cutoff = Int64((now.timeIntervalSince1970 - retention) * 1000)
        guard let oldest = try Int64.fetchOne(db, sql: "SELECT wall FROM \(table) ORDER BY rowid LIMIT 1"),
            oldest < cutoff
        else { return }
        try db.execute(
            sql: "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE wall < ? LIMIT 1000)",
            arguments: [cutoff])
    }
}

extension ObjectStore {
    /// The history of these objects, oldest first (``ChangeHistory``).
    public func history(of ids: [GlobalID]) throws -> [ChangeHistory.Entry] {
        let wanted = Set(ids)
        let own = historyOwner()
        return try read { db in
            // Only the records that name them are decoded.
            try ChangeHistory.entries(where: { wanted.contains($0.id) }, naming: ids.map(\.description), own: own, db)
        }
    }

    /// The history of every object of `entity`, oldest first.
    public func history(of entity: String) throws -> [ChangeHistory.Entry] {
        let own = historyOwner()
        return try read { db in try ChangeHistory.entries(where: { $0.entity == entity }, own: own, db) }
    }

    /// The objects of `entity` whose history ever gave the text attribute `property` a value
    /// with the key of `text` (``UniqueKey``: an item's name, ignoring case and spaces): how a
    /// removed or merged object is found again.
    public func historyObjects(of entity: String, whereEver property: String, was text: String) throws
        -> [GlobalID]
    {
        let wanted = UniqueKey.normalize(text)
        return Set(
            try history(of: entity).compactMap { entry -> GlobalID? in
                guard case .string(let value)? = entry.values[property], UniqueKey.normalize(value) == wanted else {
                    return nil
                }
                return entry.object.id
            }
        ).sorted()
    }

    /// The copies of `entity` whose history says they were merged into one of `ids` (a
    /// deduplication).
    public func historyObjects(of entity: String, mergedInto ids: [GlobalID]) throws -> [GlobalID] {
        let targets = Set(ids)
        let own = historyOwner()
        // A merge's record names the copy it went into: only those records are decoded.
        let entries = try read { db in
            try ChangeHistory.entries(where: { $0.entity == entity }, naming: ids.map(\.description), own: own, db)
        }
        return Set(entries.filter { $0.kind == .merge && $0.mergedInto.map(targets.contains) == true }.map(\.object.id))
            .sorted()
    }

    /// Whose the saves waiting in the outbox are.
    private func historyOwner() -> (peer: String, device: String?, person: String?) {
        let author = historyAuthor.withLock { $0 }
        return (peer, author?.device, author?.person)
    }
}

/// A value several threads read and write, behind a lock.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
