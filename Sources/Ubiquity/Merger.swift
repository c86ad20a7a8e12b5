import Foundation
import GRDB

/// The objects an import changed: what `didImportContentChanges` carries.
public struct ImportedChanges: Equatable, Sendable {
    public var inserted: Set<ObjectID> = []
    public var updated: Set<ObjectID> = []
    public var deleted: Set<ObjectID> = []

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    public var count: Int { inserted.count + updated.count + deleted.count }

    public mutating func formUnion(_ other: ImportedChanges) {
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
/// - a reference to a deleted object reads as null, on every peer;
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

    func apply(_ record: TransactionRecord, from peer: String) throws -> ImportedChanges {
        let clock = Self.reading(of: record, from: peer)
        var changes = ImportedChanges()

        for object in record.deleted { try delete(object, clock: clock, into: &changes) }

        for change in record.inserted + record.updated {
            let stamped = change.values.mapValues { ($0, clock) }
            try merge(change.object, properties: stamped, into: &changes)
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
    /// (`fallback`) only fill a row that does not exist yet.
    func merge(_ object: ObjectID, properties: [String: (PropertyValue, HLC)], fallback: [String: PropertyValue] = [:],
               into changes: inout ImportedChanges) throws {
        guard let entity = schema.entity(named: object.entity) else { return }
        let id = object.id
        guard try !PropertyClocks.isDeleted(id, db) else { return }
        let existing = try PropertyClocks.clockRow(of: id, db)
        var clocks = existing ?? [:]
        var winners: [String: PropertyValue] = [:]
        for (property, (value, clock)) in properties {
            guard let type = entity.type(of: property), value.fits(type) else { continue }
            if let stored = clocks[property],
               !policy.importedValueWins(entity: entity.name, property: property, stored: stored, imported: clock) {
                continue
            }
            if case .blob(let hash) = value {
                // The blob has not arrived: only this property waits for it (see BlobStore),
                // unless a value with a later reading waits already. Readings are compared, not
                // their texts, which sort alike only while counters have six digits.
                let waiting = try String.fetchOne(db, sql: "SELECT clock FROM \(EngineTables.pendingBlob) WHERE objectID = ? AND property = ?",
                                                  arguments: [id.description, property]).flatMap(HLC.init)
                if let waiting, !policy.importedValueWins(entity: entity.name, property: property, stored: waiting, imported: clock) {
                    continue
                }
                try db.execute(sql: """
                    INSERT OR REPLACE INTO \(EngineTables.pendingBlob) (objectID, entity, property, hash, clock) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [id.description, entity.name, property, hash, clock.description])
                continue
            }
            if case .reference(let target) = value, try PropertyClocks.isDeleted(target, db) {
                winners[property] = .null
            } else {
                winners[property] = value
            }
            clocks[property] = clock
        }
        if existing == nil {
            let filled = fallback.filter { entity.type(of: $0.key).map($0.value.fits) ?? false }
            guard !winners.isEmpty || !filled.isEmpty else { return }
            try RowWriter.insert(entity, id: id, values: filled.merging(winners) { _, new in new }, db)
            changes.inserted.insert(object)
        } else {
            guard !winners.isEmpty else { return }
            try RowWriter.update(entity, id: id, values: winners, db)
            if !changes.inserted.contains(object) { changes.updated.insert(object) }
        }
        try PropertyClocks.setClocks(clocks, of: id, db)
    }

    /// Applies a delete that another peer made (or a baseline holds).
    func delete(_ object: ObjectID, clock: HLC, into changes: inout ImportedChanges) throws {
        guard let entity = schema.entity(named: object.entity) else { return }
        guard try !PropertyClocks.isDeleted(object.id, db) else { return }
        let existed = try RowWriter.values(entity, id: object.id, db) != nil
        try RowWriter.delete(entity, id: object.id, db)
        try PropertyClocks.tombstone(object, clock: clock, db)
        changes.updated.formUnion(try nullifyReferences(to: object))
        if existed { changes.deleted.insert(object) }
    }

    /// Sets every reference to a deleted object to null, without recording it: each peer does
    /// the same when it learns of the delete.
    private func nullifyReferences(to object: ObjectID) throws -> Set<ObjectID> {
        var touched: Set<ObjectID> = []
        for (source, relationship) in schema.relationships(pointingAt: object.entity) {
            let column = relationship.name.quotedDatabaseIdentifier
            let table = source.table.quotedDatabaseIdentifier
            let ids = try GlobalID.fetchAll(db, sql: "SELECT id FROM \(table) WHERE \(column) = ?", arguments: [object.id.description])
            try db.execute(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?", arguments: [object.id.description])
            touched.formUnion(ids.map { ObjectID(entity: source.name, id: $0) })
        }
        return touched
    }
}
