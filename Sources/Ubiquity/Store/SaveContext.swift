import Foundation
import GRDB

/// The one way to change a store's objects, inside ``ObjectStore/save(author:_:)``.
///
/// Each call writes the row and records the change, so that the save ends with a
/// ``TransactionRecord`` of exactly what it did. Reads go through ``db`` directly.
public final class SaveContext {
    /// The database, inside the save's transaction. Read freely; write only through this context.
    public let db: Database
    public let schema: Schema
    /// The save's "now": every modification date it sets. The wall clock, read as 1970-01-01
    /// before 1970 and as the end of 9999 after it (dates peers accept).
    public var now: Date { clock.now }
    private let ids: any IDGenerator
    var recorder = ChangeRecorder()
    /// The device's clock, read once, and the reading inserted rows are written with.
    let clock: SaveClock
    /// The inserted rows written with their readings, and how many properties those name.
    private var readingsWritten: [ObjectID: Int] = [:]

    init(db: Database, schema: Schema, ids: any IDGenerator, clock: SaveClock) {
        self.db = db
        self.schema = schema
        self.ids = ids
        self.clock = clock
    }

    // MARK: - Insert

    /// Inserts an object. Missing attributes take their defaults; the modification date is now.
    /// A null it is created with (where the default is null) is not recorded as a write: it
    /// never wins over a value of a copy this object is merged with later (``MergedCopies``).
    ///
    /// - Returns: the new object's global ID (`id`, or a fresh one).
    /// - Throws: ``StoreError`` for an unknown entity or property, a mistyped value, or an ID
    ///   that exists already.
    @discardableResult
    public func insert(_ entityName: String, id: GlobalID? = nil, values: [String: PropertyValue]) throws -> GlobalID {
        let entity = try entityDescription(entityName)
        try check(values, for: entity)
        let values = try resolvingMerges(values)
        let id = id ?? ids.next()
        let object = ObjectID(entity: entity.name, id: id)
        // The row starts as every column's default and the record as the defaults that are not
        // null; each value given replaces its column's (one lookup each, where a pass over the
        // columns looked every name up in `values`).
        var row = [id.description.databaseValue]
        row.reserveCapacity(entity.propertyNames.count + 2)  // and the clocks (RowWriter)
        row.append(contentsOf: entity.columnDefaults)
        var recorded = entity.recordedDefaults
        for (name, value) in values {
            let column = entity.column(of: name)!  // checked above
            row[column + 1] = value.databaseValue
            if value != .null || !entity.columnDefaults[column].isNull { recorded[name] = value }
        }
        if let column = entity.modificationDateColumn, values[entity.propertyNames[column]] == nil {
            row[column + 1] = PropertyValue.date(now).databaseValue
            recorded[entity.propertyNames[column]] = .date(now)
        }
        // The row's readings in the same statement, at the reading the save most likely ends
        // with (``SaveClock``).
        let reading = try clock.insertReading()
        do {
            try RowWriter.insert(
                entity, row: row, clocks: reading.map { PropertyClocks.encode(recorded.keys, at: $0) }, db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            // The primary key says it: no lookup before every insert.
            throw StoreError.duplicateID(object)
        }
        readingsWritten[object] = reading == nil ? nil : recorded.count
        recorder.recordInsert(object, values: recorded)
        return id
    }

    /// Whether the row of `change`, an insert this save records, holds its readings at
    /// `reading` already: the save ends with the reading its inserts were written with, and
    /// the insert records the properties it wrote then. An update of the object later in the
    /// save only adds properties to what is recorded (``ChangeRecorder``), so the same count
    /// is the same properties.
    func insertWritten(_ change: ObjectChange, at reading: HLC) -> Bool {
        guard let count = readingsWritten[change.object], let written = try? clock.insertReading() else { return false }
        return written == reading && count == change.values.count
    }

    // MARK: - Update

    /// Sets properties of an object. Only values that differ from the stored ones are written
    /// and recorded; when something changed, the modification date becomes now.
    ///
    /// - Returns: whether anything changed.
    @discardableResult
    public func update(_ entityName: String, id: GlobalID, values: [String: PropertyValue]) throws -> Bool {
        let entity = try entityDescription(entityName)
        try check(values, for: entity)
        let object = ObjectID(entity: entity.name, id: id)
        guard let current = try fetchValues(object, entity: entity) else { throw StoreError.objectNotFound(object) }
        let values = try resolvingMerges(values)

        var changes = values.filter { current[$0.key] != $0.value }
        guard !changes.isEmpty else { return false }
        if let modified = entity.modificationDateAttribute, values[modified] == nil { changes[modified] = .date(now) }
        try RowWriter.update(entity, id: id, values: changes, db)
        recorder.recordUpdate(object, values: changes)
        return true
    }

    // MARK: - Carry

    /// Writes values carried from another store with the readings they were written at there
    /// (two lists merged into one): inserts the object when this store has no row of it, else
    /// updates it. Every property in `readings` keeps its reading, here and in the record every
    /// peer applies, so an edit made anywhere later than it still wins over the copy and one
    /// made earlier still loses. The caller carries a value only where its reading is later
    /// than the stored value's, as a peer's log would be merged; the save's own reading comes
    /// after every carried one.
    public func carry(_ entityName: String, id: GlobalID, values: [String: PropertyValue], readings: [String: HLC])
        throws
    {
        let object = ObjectID(entity: entityName, id: id)
        if try fetchValues(object, entity: try entityDescription(entityName)) == nil {
            try insert(entityName, id: id, values: values)
        } else {
            try update(entityName, id: id, values: values)
        }
        recorder.recordReadings(readings, of: object)
    }

    // MARK: - Delete

    /// Deletes an object: objects pointing at it lose the link (those that belong to it are
    /// deleted), and targets of its cascading relationships are deleted too. Deleting an object that is not there does nothing.
    public func delete(_ entityName: String, id: GlobalID) throws {
        let entity = try entityDescription(entityName)
        let object = ObjectID(entity: entity.name, id: id)
        guard let current = try fetchValues(object, entity: entity) else { return }

        try RowWriter.delete(entity, id: id, db)
        recorder.recordDelete(object)

        for (source, relationship) in schema.relationships(pointingAt: entity.name) {
            let pointing = try String.fetchAll(
                db,
                sql:
                    "SELECT id FROM \(source.table.quotedDatabaseIdentifier) WHERE \(relationship.name.quotedDatabaseIdentifier) = ?",
                arguments: [id.description])
            for sourceID in pointing.compactMap(GlobalID.init) {
                if relationship.belongsToTarget {
                    try delete(source.name, id: sourceID)
                } else {
                    try update(source.name, id: sourceID, values: [relationship.name: .null])
                }
            }
        }
        for relationship in entity.relationships where relationship.deleteRule == .cascade {
            if case .reference(let target) = current[relationship.name] {
                try delete(relationship.destination, id: target)
            }
        }
    }

    // MARK: - Merge

    /// Merges two copies of an object (a deduplication): the one with the greater ID is merged
    /// into the other, which takes, property by property, the value with the later clock
    /// reading, and then `chosen` written at `reading` (see ``ObjectMerge``); whatever pointed
    /// at the merged copy points at the survivor. Every peer that applies the save does the
    /// same (``MergedCopies``). Nothing is edited: no modification date or reading changes.
    ///
    /// A merge comes before any other change of either copy in the save.
    ///
    /// - Returns: the survivor, and the properties it took from the other copy.
    /// - Throws: ``StoreError`` for an unknown entity, a copy that is not here, or chosen values
    ///   that do not fit.
    @discardableResult
    public func merge(
        _ entityName: String, id: GlobalID, with other: GlobalID, chosen: [String: PropertyValue] = [:],
        reading: HLC? = nil
    ) throws -> (survivor: GlobalID, carried: [String]) {
        let entity = try entityDescription(entityName)
        try check(chosen, for: entity)
        precondition(chosen.isEmpty || reading != nil, "chosen values need a reading")
        for copy in [id, other] {
            let object = ObjectID(entity: entity.name, id: copy)
            guard try fetchValues(object, entity: entity) != nil else { throw StoreError.objectNotFound(object) }
            precondition(!recorder.touched(object), "merge \(object) before any other change of it in the save")
        }
        guard id != other else { return (id, []) }
        let merge = ObjectMerge(
            object: ObjectID(entity: entity.name, id: max(id, other)), into: min(id, other),
            chosen: chosen, reading: chosen.isEmpty ? nil : reading)
        // The tombstone takes the save's reading when the save has one (PropertyClocks.stamp).
        let placeholder = HLC(wall: 0, counter: 0, peer: "pending")
        var changes = ImportedChanges()
        let outcome = try Merger(schema: schema, policy: LastWriterWins(), db: db).merge(
            merge, clock: placeholder, into: &changes)
        recorder.recordMerge(merge)
        return (outcome.survivor ?? merge.into, outcome.carried)
    }

    // MARK: - Reading objects

    /// The readings of an object's properties as the save found them: none for an object this
    /// save inserted, whose row holds the readings the save will most likely end with
    /// (``SaveClock``) — no one's yet, and later than any other. Whatever inside a save weighs
    /// readings (the seeder matching an object inserted earlier in the same save, a
    /// deduplication) reads them here, and sees such an object as a row without readings, as
    /// it did when a save stamped its rows only at its end.
    func readings(of object: ObjectID, in entity: EntityDescription) throws -> [String: HLC] {
        guard readingsWritten[object] == nil else { return [:] }
        return try PropertyClocks.clocks(of: object.id, in: entity, db)
    }

    /// Whether the store holds a tombstone for `id`: the object was deleted here or on a peer,
    /// for good. Peers ignore an insert under its ID, so inserting it again would make this
    /// store differ from theirs.
    public func isDeleted(_ id: GlobalID) throws -> Bool {
        try PropertyClocks.isDeleted(id, db)
    }

    /// Every property of an object, or `nil` when there is no such object.
    public func values(of entityName: String, id: GlobalID) throws -> [String: PropertyValue]? {
        let entity = try entityDescription(entityName)
        return try fetchValues(ObjectID(entity: entity.name, id: id), entity: entity)
    }

    private func fetchValues(_ object: ObjectID, entity: EntityDescription) throws -> [String: PropertyValue]? {
        try RowWriter.values(entity, id: object.id, db)
    }

    // MARK: - Helpers

    private func entityDescription(_ name: String) throws -> EntityDescription {
        guard let entity = schema.entity(named: name) else { throw StoreError.unknownEntity(name) }
        return entity
    }

    /// References to a copy merged away point at the copy that holds it now (null when it is
    /// deleted), as on every peer that applies the save.
    private func resolvingMerges(_ values: [String: PropertyValue]) throws -> [String: PropertyValue] {
        var resolved = values
        for (name, value) in values {
            guard case .reference(let target) = value else { continue }
            let survivor = try MergedCopies.survivor(of: target, db)
            if survivor.deleted {
                resolved[name] = .null
            } else if survivor.id != target {
                resolved[name] = .reference(survivor.id)
            }
        }
        return resolved
    }

    private func check(_ values: [String: PropertyValue], for entity: EntityDescription) throws {
        for (name, value) in values {
            guard let column = entity.column(of: name) else {
                throw StoreError.unknownProperty(entity: entity.name, property: name)
            }
            let type = entity.columnTypes[column]
            guard value.fits(type) else {
                throw StoreError.wrongType(entity: entity.name, property: name, expected: type)
            }
            if let reason = entity.columnRules[column].violation(of: value) {
                throw StoreError.invalidValue(entity: entity.name, property: name, reason: reason)
            }
        }
    }
}
