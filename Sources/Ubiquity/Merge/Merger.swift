import Foundation
import GRDB

/// The objects an import changed, inserted, updated and deleted (what Core Data's
/// `NSPersistentStoreDidImportUbiquitousContentChanges` notification carries).
public struct ImportedChanges: Equatable, Sendable {
    public var inserted: Set<ObjectID> = []
    public var updated: Set<ObjectID> = []
    public var deleted: Set<ObjectID> = []

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    public var count: Int { inserted.count + updated.count + deleted.count }

    /// Makes room for that many objects inserted and updated, so that unions into it (a batch's
    /// logs, one after the other) do not grow its sets step by step, rehashing every object at
    /// each step.
    mutating func reserveCapacity(inserted: Int, updated: Int) {
        self.inserted.reserveCapacity(inserted)
        self.updated.reserveCapacity(updated)
    }

    public mutating func formUnion(_ other: ImportedChanges) {
        // Into nothing yet (an import's first log, a report's first batch): the other's sets
        // as they are, not rehashed one object at a time into new ones — what the general
        // case below gives when every set here is empty — unless room was made here for more.
        if isEmpty, inserted.capacity <= other.inserted.capacity, updated.capacity <= other.updated.capacity {
            self = other
            if !updated.isEmpty { updated.subtract(inserted) }
            if !deleted.isEmpty {
                inserted.subtract(deleted)
                updated.subtract(deleted)
            }
            return
        }
        inserted.formUnion(other.inserted)
        updated.formUnion(other.updated.subtracting(inserted))
        deleted.formUnion(other.deleted)
        inserted.subtract(deleted)
        updated.subtract(deleted)
    }
}

/// Applies another peer's transaction to the store, property by property, so that every peer
/// that has seen the same transactions holds the same data, whatever order they came in:
///
/// - a property takes the imported value when the merge policy says so (by default, when the
///   imported clock reading is later than the one of the stored value);
/// - a delete is final: the object's tombstone stops later or concurrent changes;
/// - copies merged by a deduplication become one object, and a change for a merged copy lands
///   on the copy that holds it now (``MergedCopies``);
/// - a reference to a deleted object reads as null, on every peer; one to a merged copy points
///   at the copy that holds it now;
/// - an update to an object not seen yet creates it with defaults for the other properties,
///   which its insert, when it arrives, fills in (they carry no clock yet).
///
/// Nothing applied here is recorded in the outbox: imported changes are never exported again.
/// Nothing here reads this device's wall clock: every decision comes from the readings, which
/// every peer has alike (how far they move this device's clock is ``LocalClock``'s).
struct Merger {
    let schema: Schema
    let policy: any MergePolicy
    let db: Database
    /// The store's record of the buckets its writes change, told of each new object's row as
    /// it is inserted (``DigestChanges/inserting(into:id:_:)``); `nil`: its pre-update hook sees them.
    var digestChanges: DigestChanges? = nil
    /// The readings text of the last new object written, for the next with the same properties.
    private let insertReadings = InsertReadings()
    /// The insert statement of the last new object's entity, for the next of the same entity.
    private let insertStatement = InsertStatement()

    /// - Parameter checked: what ``check(_:)`` read of the store for this record, in the same
    ///   transaction, just before.
    func apply(_ record: TransactionRecord, from peer: String, checked: StoredEntities? = nil) throws -> ImportedChanges
    {
        let clock = Self.reading(of: record, from: peer)
        var changes = ImportedChanges()
        // Only deletes and merges write tombstones: without them, an object the check found
        // without one is still its own survivor, and needs no query to say so.
        let untombstoned = record.deleted.isEmpty && record.merged.isEmpty ? checked : nil

        // A merged copy is listed as deleted too, for builds that know no merges.
        let merged = Set(record.merged.map(\.object))
        for object in record.deleted where !merged.contains(object) { try delete(object, clock: clock, into: &changes) }
        for merge in record.merged { _ = try self.merge(merge, clock: clock, into: &changes) }

        for change in [record.inserted, record.updated].joined() {
            // Each value with the transaction's reading (or the one it was carried with), as it
            // is read: no dictionary made again.
            let stamped = change.values.lazy.map {
                (key: $0.key, value: ($0.value, change.reading(of: $0.key, recordClock: clock)))
            }
            try merge(change.object, properties: stamped, into: &changes, untombstoned: untombstoned)
        }
        return changes
    }

    /// The reading that orders a transaction's changes (logs of the earliest builds had none:
    /// their timestamp stands in).
    static func reading(of record: TransactionRecord, from peer: String) -> HLC {
        record.clock ?? HLC(wall: Int64(record.timestamp.timeIntervalSince1970 * 1000), counter: 0, peer: peer)
    }

    /// Merges one object's properties, each with the clock reading of its value: what a log's
    /// change and a baseline's object both come down to. Properties without a reading
    /// (`fallback`) only fill a row that does not exist yet. `untombstoned` knows IDs that
    /// have no tombstone (see ``survivor(of:_:)``). `properties` names each property once (a
    /// dictionary, or a view of one).
    func merge<Properties: Sequence>(
        _ object: ObjectID, properties: Properties, fallback: [String: PropertyValue] = [:],
        into changes: inout ImportedChanges, untombstoned: StoredEntities? = nil
    ) throws
    where Properties.Element == (key: String, value: (PropertyValue, HLC)) {
        guard let entity = schema.entity(named: object.entity) else { return }
        // A change for a copy merged away lands on the copy that holds it now.
        let survivor = try self.survivor(of: object.id, untombstoned)
        guard !survivor.deleted else { return }
        let id = survivor.id
        let object = ObjectID(entity: object.entity, id: id)
        if !entity.belongingRelationships.isEmpty,
            let clock = try ownerGone(properties, of: entity, untombstoned)
        {
            // It belongs to an object deleted meanwhile (a link to a shop removed elsewhere):
            // deleted with it, as where the delete was made.
            return try delete(object, clock: clock, changes: &changes)
        }
        // An object the check found without a row has none still unless this transaction
        // merged something of it (every merge that writes a row lists the object as inserted
        // or updated): an import's new objects need no query to say so.
        let knownNew =
            untombstoned?.hadNoRow(id, in: entity) == true && !changes.inserted.contains(object)
            && !changes.updated.contains(object)
        guard !knownNew, var clocks = try PropertyClocks.clockRow(of: id, in: entity, db) else {
            return try insert(
                object, of: entity, properties: properties, fallback: fallback, into: &changes,
                untombstoned: untombstoned)
        }
        var winners = [String: PropertyValue](minimumCapacity: properties.underestimatedCount)
        for (property, (value, clock)) in properties {
            guard let type = entity.type(of: property), value.fits(type) else { continue }
            if let stored = clocks[property],
                !policy.importedValueWins(entity: entity.name, property: property, stored: stored, imported: clock)
            {
                continue
            }
            guard let value = try winner(value, of: property, at: clock, for: object, of: entity, untombstoned) else {
                continue
            }
            winners[property] = value
            clocks[property] = clock
        }
        guard !winners.isEmpty else { return }
        try RowWriter.update(entity, id: id, values: winners, db)
        if !changes.inserted.contains(object) { changes.updated.insert(object) }
        try PropertyClocks.setClocks(clocks, of: id, in: entity, db)
    }

    /// ``merge(_:properties:fallback:into:untombstoned:)`` of an object the store has no row of:
    /// every value that fits is written, and `fallback` fills what none gave. The row is built
    /// column by column, found by one lookup a property (a new object is most of an import;
    /// dictionaries of its values and readings made again cost a lookup each), and written
    /// with its readings in one statement.
    private func insert<Properties: Sequence>(
        _ object: ObjectID, of entity: EntityDescription, properties: Properties,
        fallback: [String: PropertyValue], into changes: inout ImportedChanges,
        untombstoned: StoredEntities?
    ) throws
    where Properties.Element == (key: String, value: (PropertyValue, HLC)) {
        var row = [DatabaseValue?](repeating: nil, count: entity.propertyNames.count)
        var written: [(name: String, clock: HLC)] = []
        written.reserveCapacity(row.count)
        // Whether every reading written is one (a log's change): the readings are then
        // encoded without grouping them.
        var oneReading = true
        for (property, (value, clock)) in properties {
            guard let column = entity.column(of: property), value.fits(entity.columnTypes[column]) else { continue }
            guard let value = try winner(value, of: property, at: clock, for: object, of: entity, untombstoned) else {
                continue
            }
            row[column] = value.databaseValue
            if oneReading, let first = written.first, first.clock != clock { oneReading = false }
            written.append((property, clock))
        }
        var filled = false
        for (property, value) in fallback {
            guard let column = entity.column(of: property), row[column] == nil, value.fits(entity.columnTypes[column])
            else { continue }
            row[column] = value.databaseValue
            filled = true
        }
        guard !written.isEmpty || filled else { return }
        let id = object.id.description
        var values = [id.databaseValue]
        values.reserveCapacity(row.count + 2)
        for (column, value) in row.enumerated() { values.append(value ?? entity.columnDefaults[column]) }
        let readings: String?
        if let first = written.first {
            readings =
                oneReading
                ? insertReadings.text(of: written.lazy.map(\.name), at: first.clock)
                : PropertyClocks.encode(Dictionary(written.lazy.map { ($0.name, $0.clock) }) { _, last in last })
        } else {
            readings = nil
        }
        // The row as ``RowWriter/insert(_:row:clocks:_:)`` writes it: its readings last.
        values.append(readings.databaseValue)
        let statement = try insertStatement.statement(for: entity, db)
        if let digestChanges {
            try digestChanges.inserting(into: entity.table, id: id) { try db.execute(statement, binding: values) }
        } else {
            try db.execute(statement, binding: values)
        }
        changes.inserted.insert(object)
    }

    /// The value a merge writes for `property` of `object`, which won over what the store
    /// holds: a reference to a copy merged away points at the copy that holds it now (null when
    /// deleted); `nil` for a blob that has not arrived, which waits for it instead.
    private func winner(
        _ value: PropertyValue, of property: String, at clock: HLC, for object: ObjectID, of entity: EntityDescription,
        _ untombstoned: StoredEntities?
    ) throws -> PropertyValue? {
        switch value {
        case .blob(let hash):
            // Only this property waits for the blob (see CloudSync+Blobs), unless a value with a
            // later reading waits already. Readings are compared, not their texts, which sort
            // alike only while counters have six digits.
            let waiting = try String.fetchOne(
                db, sql: "SELECT clock FROM \(EngineTables.pendingBlob) WHERE objectID = ? AND property = ?",
                arguments: [object.id.description, property]
            ).flatMap { HLC($0) }
            if let waiting,
                !policy.importedValueWins(entity: entity.name, property: property, stored: waiting, imported: clock)
            {
                return nil
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO \(EngineTables.pendingBlob) (objectID, entity, property, hash, clock) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [object.id.description, entity.name, property, hash, clock.description])
            return nil
        case .reference(let target):
            let survivor = try self.survivor(of: target, untombstoned)
            return survivor.deleted ? .null : .reference(survivor.id)
        default:
            return value
        }
    }

    /// The reading of a reference, among `properties`, to an object that is deleted, by a
    /// relationship that belongs to its target; `nil` when there is none.
    private func ownerGone<Properties: Sequence>(
        _ properties: Properties, of entity: EntityDescription, _ untombstoned: StoredEntities?
    ) throws -> HLC? where Properties.Element == (key: String, value: (PropertyValue, HLC)) {
        for (property, (value, clock)) in properties where entity.belongingRelationships.contains(property) {
            if case .reference(let target) = value, try survivor(of: target, untombstoned).deleted { return clock }
        }
        return nil
    }

    /// What `id` stands for now (``MergedCopies/survivor(of:_:)``): itself, without a query,
    /// when `untombstoned` read it and found no tombstone, and none was written since.
    private func survivor(of id: GlobalID, _ untombstoned: StoredEntities?) throws -> MergedCopies.Survivor {
        if let untombstoned, untombstoned.hasNoTombstone(id) { return MergedCopies.Survivor(id: id, deleted: false) }
        return try MergedCopies.survivor(of: id, db)
    }

    /// Applies a delete that another peer made (or a baseline holds). Deleting a copy merged
    /// away deletes the object it became: they are one.
    func delete(_ object: ObjectID, clock: HLC, into changes: inout ImportedChanges) throws {
        guard schema.entity(named: object.entity) != nil else { return }
        let survivor = try MergedCopies.survivor(of: object.id, db)
        guard !survivor.deleted else { return }
        try delete(ObjectID(entity: object.entity, id: survivor.id), clock: clock, changes: &changes)
    }

    private func delete(_ object: ObjectID, clock: HLC, changes: inout ImportedChanges) throws {
        guard let entity = schema.entity(named: object.entity) else { return }
        let existed = try RowWriter.values(entity, id: object.id, db) != nil
        try RowWriter.delete(entity, id: object.id, db)
        try PropertyClocks.tombstone(object, clock: clock, db)
        // Deleted or set to null without being recorded: each peer does the same when it learns
        // of the delete.
        try MergedCopies.deleteBelonging(to: object, clock: clock, schema: schema, changes: &changes, db)
        changes.updated.formUnion(try MergedCopies.repoint(object, to: nil, schema: schema, db))
        if existed { changes.deleted.insert(object) }
    }

    /// Applies a merge of two copies (``MergedCopies``), then the values the deduplication chose
    /// for the object, as writes with their reading.
    ///
    /// - Returns: the copy that holds the object now (`nil`: it is deleted), and what it took.
    func merge(_ merge: ObjectMerge, clock: HLC, into changes: inout ImportedChanges) throws -> MergedCopies.Outcome {
        let outcome = try MergedCopies.merge(
            merge.object, with: merge.into, clock: clock, schema: schema, policy: policy, db)
        changes.formUnion(outcome.changes)
        if let survivor = outcome.survivor, let reading = merge.reading, !merge.chosen.isEmpty {
            try self.merge(
                ObjectID(entity: merge.object.entity, id: survivor),
                properties: merge.chosen.mapValues { ($0, reading) },
                into: &changes)
        }
        return outcome
    }
}
