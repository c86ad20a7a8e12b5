import Foundation
import GRDB

/// What happened to each object, as this device learned it: a row for every object a save of
/// its own or an imported log inserted, updated, deleted or merged, with when the change was
/// made (its clock reading), by which peer, device and person, and the values it wrote (binary
/// values left out). Local, never synced: each device keeps its own, from its own saves and
/// the logs it imports; baselines carry none, so a device that joins late knows the history
/// from the logs still in the folder onward. Rows older than ``retention`` go at each import.
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
            t.autoIncrementedPrimaryKey("seq")
            t.column("objectID", .text).notNull().indexed()
            t.column("entity", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("wall", .integer).notNull().indexed()
            t.column("clock", .text)
            t.column("peer", .text).notNull()
            t.column("device", .text)
            t.column("person", .text)
            t.column("author", .text).notNull()
            t.column("vals", .text)
            t.column("mergedInto", .text)
        }
    }

    /// Records what `record` did, as made by `peer` (device and person as its log named them).
    static func record(
        _ record: TransactionRecord, peer: String, device: String?, person: String?, _ db: Database
    ) throws {
        let reading = record.clock
        let wall = reading?.wall ?? Int64(record.timestamp.timeIntervalSince1970 * 1000)
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO \(table) (objectID, entity, kind, wall, clock, peer, device, person, author, vals, mergedInto)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        func add(_ object: ObjectID, _ kind: Entry.Kind, _ values: [String: PropertyValue]?, into: GlobalID? = nil)
            throws
        {
            let kept = values?.filter {
                switch $0.value {
                case .data, .blob: false
                default: true
                }
            }
            let text = try kept.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            try statement.execute(arguments: [
                object.id.description, object.entity, kind.rawValue, wall, reading?.description, peer, device,
                person, record.author, text, into?.description,
            ])
        }
        for change in record.inserted { try add(change.object, .insert, change.values) }
        for change in record.updated { try add(change.object, .update, change.values) }
        let merged = Set(record.merged.map(\.object))
        for merge in record.merged { try add(merge.object, .merge, merge.chosen, into: merge.into) }
        for object in record.deleted where !merged.contains(object) { try add(object, .delete, nil) }
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
                let columns = "objectID, entity, kind, wall, clock, peer, device, person, author, vals, mergedInto"
                try db.execute(
                    sql: """
                        INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM kept.\(table) AS k
                        WHERE NOT EXISTS (SELECT 1 FROM main.\(table) AS m WHERE m.objectID = k.objectID
                            AND m.kind = k.kind AND m.clock IS k.clock AND m.peer = k.peer)
                        ORDER BY k.seq
                        """)
                return .commit
            }
        }
    }

    /// Forgets what is older than ``retention`` by `now`.
    static func prune(now: Date, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM \(table) WHERE wall < ?",
            arguments: [Int64((now.timeIntervalSince1970 - retention) * 1000)])
    }

    /// The history of these objects, oldest first (by clock reading, then as recorded).
    static func entries(of ids: [GlobalID], _ db: Database) throws -> [Entry] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT * FROM \(table) WHERE objectID IN (\(marks)) ORDER BY wall, clock, seq",
            arguments: StatementArguments(ids.map(\.description)))
        return rows.compactMap { row in
            guard let id = GlobalID(row["objectID"] as String), let kind = Entry.Kind(rawValue: row["kind"]) else {
                return nil
            }
            let values = (row["vals"] as String?).flatMap {
                try? JSONDecoder().decode([String: PropertyValue].self, from: Data($0.utf8))
            }
            return Entry(
                object: ObjectID(entity: row["entity"], id: id), kind: kind,
                at: Date(timeIntervalSince1970: Double(row["wall"] as Int64) / 1000),
                clock: (row["clock"] as String?).flatMap { HLC($0) }, peer: row["peer"], device: row["device"],
                person: row["person"], author: row["author"], values: values ?? [:],
                mergedInto: (row["mergedInto"] as String?).flatMap(GlobalID.init))
        }
    }

    /// The objects of `entity` whose history ever gave the text attribute `property` a value
    /// with the key of `text` (``UniqueKey``: an item's name, ignoring case and spaces): how a
    /// removed or merged object is found again.
    static func objects(of entity: String, whereEver property: String, was text: String, _ db: Database)
        throws -> [GlobalID]
    {
        let wanted = UniqueKey.normalize(text)
        var found: Set<GlobalID> = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT objectID, vals FROM \(table) WHERE entity = ? AND instr(vals, ?) > 0",
            arguments: [entity, "\"\(property)\""])
        while let row = try rows.next() {
            guard let id = GlobalID(row[0] as String), !found.contains(id), let text = row[1] as String?,
                let values = try? JSONDecoder().decode([String: PropertyValue].self, from: Data(text.utf8)),
                case .string(let value)? = values[property], UniqueKey.normalize(value) == wanted
            else { continue }
            found.insert(id)
        }
        return found.sorted()
    }
}

extension ObjectStore {
    /// The history of these objects, oldest first (``ChangeHistory``).
    public func history(of ids: [GlobalID]) throws -> [ChangeHistory.Entry] {
        try read { db in try ChangeHistory.entries(of: ids, db) }
    }

    /// The copies whose history says they were merged into one of `ids` (a deduplication).
    public func historyObjects(mergedInto ids: [GlobalID]) throws -> [GlobalID] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT objectID FROM \(ChangeHistory.table) WHERE kind = 'merge' AND mergedInto IN (\(marks))
                    """, arguments: StatementArguments(ids.map(\.description))
            ).compactMap(GlobalID.init)
        }
    }

    /// The objects whose history ever named them `text` (by the key of ``UniqueKey``).
    public func historyObjects(of entity: String, whereEver property: String, was text: String) throws
        -> [GlobalID]
    {
        try read { db in try ChangeHistory.objects(of: entity, whereEver: property, was: text, db) }
    }
}

/// A value several threads read and write, behind a lock.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
