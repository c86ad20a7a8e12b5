import Foundation
import GRDB

/// Copies of one object that a deduplication merged (``ObjectMerge``): from then on they are one
/// object, held by the copy with the smallest global ID — on every peer, whatever order the
/// merges, edits and deletes arrive in.
///
/// - Merging two copies folds the one with the greater ID into the other, property by property,
///   each keeping the value with the later clock reading (as an imported change would; where
///   neither has a reading, the survivor takes only what it lacks), then gives it a tombstone
///   naming the copy it went into. Whatever pointed at it points at the survivor; no reading
///   changes, as nothing was edited.
/// - A change that arrives later for a merged copy (an edit made offline, a late insert) lands
///   on the copy that holds it now, through chains of merges; so does a reference to it.
/// - A delete of any copy deletes the object, and a merge with a deleted copy deletes the other:
///   they are one object, and a delete is final.
///
/// So each survivor holds, for each property, the newest write any of its copies had, and peers
/// that applied the same merges, edits and deletes hold the same data.
enum MergedCopies {
    /// What a global ID stands for on this peer now.
    struct Survivor: Equatable {
        /// The copy that holds the object: the ID itself when it was never merged away.
        var id: GlobalID
        /// The object was deleted, through one of its copies.
        var deleted: Bool
    }

    /// What merging two copies did.
    struct Outcome {
        var changes = ImportedChanges()
        /// The copy that holds the object now; `nil` when it is deleted.
        var survivor: GlobalID?
        /// The properties the survivor took from the other copy.
        var carried: [String] = []
    }

    /// Follows the merges of `id` to the copy that holds it now. An ID never seen stands for
    /// itself.
    static func survivor(of id: GlobalID, _ db: Database) throws -> Survivor {
        var current = id
        // Merges link survivors only, so chains end; the bound guards against a store edited by hand.
        for _ in 0..<1_000 {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT mergedInto FROM \(EngineTables.tombstone) WHERE objectID = ?"),
                    arguments: [current.description])
            else { return Survivor(id: current, deleted: false) }
            guard let text = row[0] as String?, let next = GlobalID(text) else {
                return Survivor(id: current, deleted: true)
            }
            current = next
        }
        return Survivor(id: current, deleted: true)
    }

    /// Makes the copies `copy` and `other` one object.
    ///
    /// - Parameter clock: the reading of the transaction that merged them, kept in the tombstone.
    static func merge(
        _ copy: ObjectID, with other: GlobalID, clock: HLC, schema: Schema, policy: any MergePolicy,
        _ db: Database
    ) throws -> Outcome {
        var outcome = Outcome()
        guard let entity = schema.entity(named: copy.entity) else { return outcome }
        let first = try survivor(of: copy.id, db)
        let second = try survivor(of: other, db)
        if first.id == second.id {
            outcome.survivor = first.deleted ? nil : first.id
            return outcome
        }
        switch (first.deleted, second.deleted) {
        case (true, true):
            break
        case (false, false):
            let (kept, gone) = first.id < second.id ? (first.id, second.id) : (second.id, first.id)
            outcome.carried = try fold(gone, into: kept, entity: entity, policy: policy, changes: &outcome.changes, db)
            try retire(
                gone, of: entity, into: kept, pointingAt: kept, clock: clock, schema: schema, changes: &outcome.changes,
                db)
            outcome.survivor = kept
        default:
            let (live, deleted) = first.deleted ? (second.id, first.id) : (first.id, second.id)
            try retire(
                live, of: entity, into: deleted, pointingAt: nil, clock: clock, schema: schema,
                changes: &outcome.changes, db)
        }
        return outcome
    }

    /// The survivor takes each property of `gone` whose reading is later than its own. Where
    /// neither has a reading (a plain store, which keeps none), it takes only what it lacks.
    private static func fold(
        _ gone: GlobalID, into kept: GlobalID, entity: EntityDescription, policy: any MergePolicy,
        changes: inout ImportedChanges, _ db: Database
    ) throws -> [String] {
        guard let values = try RowWriter.values(entity, id: gone, db) else { return [] }
        let readings = try PropertyClocks.clocks(of: gone, in: entity, db)
        let object = ObjectID(entity: entity.name, id: kept)
        guard let current = try RowWriter.values(entity, id: kept, db) else {
            // The survivor has not arrived here yet: this copy's row is its row until it does.
            try RowWriter.insert(
                entity, id: kept, values: values, clocks: readings.isEmpty ? nil : PropertyClocks.encode(readings), db)
            changes.inserted.insert(object)
            return readings.keys.sorted()
        }
        var clocks = try PropertyClocks.clocks(of: kept, in: entity, db)
        var taken: [String: PropertyValue] = [:]
        for property in entity.propertyNames {
            guard let value = values[property] else { continue }
            switch (readings[property], clocks[property]) {
            case (let reading?, let stored?):
                guard
                    policy.importedValueWins(entity: entity.name, property: property, stored: stored, imported: reading)
                else { continue }
            case (.some, nil):
                break
            case (nil, .some):
                continue
            case (nil, nil):
                guard current[property] == .null, value != .null else { continue }
            }
            taken[property] = value
            if let reading = readings[property] { clocks[property] = reading }
        }
        guard !taken.isEmpty else { return [] }
        try RowWriter.update(entity, id: kept, values: taken, db)
        try PropertyClocks.setClocks(clocks, of: kept, in: entity, db)
        changes.updated.insert(object)
        return taken.keys.sorted()
    }

    /// Removes a copy's row and tombstones it as merged into `target`; references to it point at
    /// `pointingAt` (null when the object is deleted).
    private static func retire(
        _ id: GlobalID, of entity: EntityDescription, into target: GlobalID, pointingAt: GlobalID?,
        clock: HLC, schema: Schema, changes: inout ImportedChanges, _ db: Database
    ) throws {
        let object = ObjectID(entity: entity.name, id: id)
        let existed = try RowWriter.values(entity, id: id, db) != nil
        try RowWriter.delete(entity, id: id, db)
        try PropertyClocks.tombstone(object, clock: clock, mergedInto: target, db)
        if pointingAt == nil { try deleteBelonging(to: object, clock: clock, schema: schema, changes: &changes, db) }
        changes.updated.formUnion(try repoint(object, to: pointingAt, schema: schema, db))
        if existed { changes.deleted.insert(object) }
        changes.inserted.remove(object)
        changes.updated.remove(object)
    }

    /// Deletes the objects that belong to `object` (``RelationshipDescription/belongsToTarget``),
    /// and theirs in turn, tombstoned at `clock`, without recording it: every peer does the
    /// same when it learns of `object`'s delete, so that a link made elsewhere meanwhile goes
    /// too.
    static func deleteBelonging(
        to object: ObjectID, clock: HLC, schema: Schema, changes: inout ImportedChanges, _ db: Database
    ) throws {
        for (source, relationship) in schema.relationships(pointingAt: object.entity) where relationship.belongsToTarget
        {
            let ids = try GlobalID.fetchAll(
                db,
                sql: """
                    SELECT id FROM \(source.table.quotedDatabaseIdentifier) WHERE \(relationship.name.quotedDatabaseIdentifier) = ?
                    """, arguments: [object.id.description])
            for id in ids {
                let owned = ObjectID(entity: source.name, id: id)
                try RowWriter.delete(source, id: id, db)
                try PropertyClocks.tombstone(owned, clock: clock, db)
                try deleteBelonging(to: owned, clock: clock, schema: schema, changes: &changes, db)
                changes.updated.formUnion(try repoint(owned, to: nil, schema: schema, db))
                changes.deleted.insert(owned)
                changes.inserted.remove(owned)
                changes.updated.remove(owned)
            }
        }
    }

    /// Points every reference to `object` at `target`, or sets it to null, without a new
    /// reading: every peer does the same when it learns of the merge or the delete.
    ///
    /// - Returns: the objects whose references changed.
    static func repoint(_ object: ObjectID, to target: GlobalID?, schema: Schema, _ db: Database) throws -> Set<
        ObjectID
    > {
        var touched: Set<ObjectID> = []
        for (source, relationship) in schema.relationships(pointingAt: object.entity) {
            let column = relationship.name.quotedDatabaseIdentifier
            let table = source.table.quotedDatabaseIdentifier
            let ids = try GlobalID.fetchAll(
                db, sql: "SELECT id FROM \(table) WHERE \(column) = ?", arguments: [object.id.description])
            guard !ids.isEmpty else { continue }
            try db.execute(
                sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?",
                arguments: [target?.description, object.id.description])
            touched.formUnion(ids.map { ObjectID(entity: source.name, id: $0) })
        }
        return touched
    }
}
