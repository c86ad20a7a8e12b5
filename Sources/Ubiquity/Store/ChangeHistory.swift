import Foundation
import GRDB

/// What happened to each object, as this device learned it: a row for every save of its own
/// and every log it imported, with when it was made (its clock reading), by which peer, device
/// and person, and the transaction record itself (the JSON the outbox holds: photos travel as
/// content hashes in a log and are not kept here). One row a save, appended at the end of a
/// table without secondary indexes: a save writes about one page more. Reading an object's
/// history scans the table — a command a person runs now and then, not a save's cost.
/// Local, never synced: baselines carry none, so a device that joins late knows the history
/// from the logs still in the folder onward. Rows older than ``retention`` go at imports.
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
        /// The command that made it ("item edit").
        public let author: String
        /// The values it wrote (an insert's, an update's changed ones).
        public let values: [String: PropertyValue]
        /// For a merge: the copy it was merged into.
        public let mergedInto: GlobalID?
    }

    /// The engine migration `ubiquity-v8`: the history's table.
    static func create(_ db: Database) throws {
        try db.create(table: table) { t in
            t.column("wall", .integer).notNull()
            t.column("clock", .text)
            t.column("peer", .text).notNull()
            t.column("device", .text)
            t.column("person", .text)
            t.column("payload", .blob).notNull()
        }
    }

    /// Records a save or an imported log: `payload` is `record`'s JSON.
    static func record(
        _ record: TransactionRecord, payload: Data, peer: String, device: String?, person: String?, _ db: Database
    ) throws {
        let wall = record.clock?.wall ?? Int64(record.timestamp.timeIntervalSince1970 * 1000)
        try db.executeCached(
            "INSERT INTO \(table) (wall, clock, peer, device, person, payload) VALUES (?, ?, ?, ?, ?, ?)",
            binding: [
                wall.databaseValue, record.clock?.description.databaseValue ?? .null, peer.databaseValue,
                device?.databaseValue ?? .null, person?.databaseValue ?? .null, payload.databaseValue,
            ])
    }

    /// The entries of every recorded change, in the order the changes were made (by clock
    /// reading, then as recorded), of the objects `wanted` accepts.
    static func entries(where wanted: (ObjectID) -> Bool, _ db: Database) throws -> [Entry] {
        var found: [(Entry, Int64)] = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT rowid, wall, clock, peer, device, person, payload FROM \(table) ORDER BY rowid")
        while let row = try rows.next() {
            guard let payload = row["payload"] as Data?, let record = try? TransactionRecord(jsonData: payload) else {
                continue
            }
            let at = Date(timeIntervalSince1970: Double(row["wall"] as Int64) / 1000)
            let clock = (row["clock"] as String?).flatMap { HLC($0) }
            func add(_ object: ObjectID, _ kind: Entry.Kind, _ values: [String: PropertyValue], into: GlobalID? = nil) {
                guard wanted(object) else { return }
                let kept = values.filter {
                    switch $0.value {
                    case .data, .blob: false
                    default: true
                    }
                }
                found.append(
                    (
                        Entry(
                            object: object, kind: kind, at: at, clock: clock, peer: row["peer"], device: row["device"],
                            person: row["person"], author: record.author, values: kept, mergedInto: into),
                        row["rowid"]
                    ))
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
    /// has already (the logs it imported itself).
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
                let columns = "wall, clock, peer, device, person, payload"
                try db.execute(
                    sql: """
                        INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM kept.\(table) AS k
                        WHERE NOT EXISTS (SELECT 1 FROM main.\(table) AS m WHERE m.clock IS k.clock AND m.peer = k.peer
                            AND m.payload = k.payload)
                        ORDER BY k.rowid
                        """)
                return .commit
            }
        }
    }

    /// Forgets what is older than ``retention`` by `now`: looked for only when the oldest row
    /// recorded is that old (one read of the table's first row), a thousand rows at a time.
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
        return try read { db in try ChangeHistory.entries(where: { wanted.contains($0.id) }, db) }
    }

    /// The objects of `entity` whose history ever gave the text attribute `property` a value
    /// with the key of `text` (``UniqueKey``: an item's name, ignoring case and spaces): how a
    /// removed or merged object is found again.
    public func historyObjects(of entity: String, whereEver property: String, was text: String) throws
        -> [GlobalID]
    {
        let wanted = UniqueKey.normalize(text)
        let entries = try read { db in try ChangeHistory.entries(where: { $0.entity == entity }, db) }
        return Set(
            entries.compactMap { entry -> GlobalID? in
                guard case .string(let value)? = entry.values[property], UniqueKey.normalize(value) == wanted else {
                    return nil
                }
                return entry.object.id
            }
        ).sorted()
    }

    /// The copies whose history says they were merged into one of `ids` (a deduplication).
    public func historyObjects(mergedInto ids: [GlobalID]) throws -> [GlobalID] {
        let targets = Set(ids)
        let entries = try read { db in try ChangeHistory.entries(where: { _ in true }, db) }
        return Set(entries.filter { $0.kind == .merge && $0.mergedInto.map(targets.contains) == true }.map(\.object.id))
            .sorted()
    }
}

/// A value several threads read and write, behind a lock.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
