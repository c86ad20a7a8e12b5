import Foundation
import GRDB

/// Deep-copies one store's objects into another, entity by entity, matching on unique
/// keys so that nothing is copied twice and relationships point at the right objects
/// (the book's "Merge with Cloud?", and merging a kept store back).
///
/// - An object is matched by its global ID, then by its unique key (texts by ``UniqueKey``,
///   references by what they were copied or matched to). A match takes, property by property, the copy's value when the copy's
///   clock reading of it is later than the match's — an edit made on the source store after
///   the target's value was written, such as a user's change of shipped default data, which
///   both stores hold under the same IDs. A property the source holds no reading of (a store
///   `cloud disable` wrote without sync metadata) only fills what the match lacks.
/// - An object the target deleted stays deleted: a delete is final, as in every merge.
/// - Anything else is inserted under its own global ID with its modification date set to now.
/// - Objects without a unique key (photos) are copied only with the object that owns them
///   through a cascading relationship, when that object takes them.
/// - Saves a batch at a time: a copy interrupted anywhere and run again finds what the earlier
///   run committed (by key or by ID) and copies only the rest.
///
/// With ``keepsReadings`` (two synced lists made one), what is copied keeps the clock readings
/// it has in the source, in the target and in the logs every peer applies
/// (``SaveContext/carry(_:id:values:readings:)``): the copy is the same writes made at the
/// same times, so an edit of either list made before the copy — and arriving after it — still
/// wins or loses by its own time. Its modification dates are copied too, and an object the
/// source deleted is deleted in the target when the target holds it under its ID (copied by
/// an earlier run). Run again, it takes only what changed in the source since.
public struct StoreSeeder {
    public let source: ObjectStore
    public let target: ObjectStore
    public var batchSize = 500
    /// Copy with the source's clock readings (see above) rather than as new writes.
    public var keepsReadings: Bool

    public init(source: ObjectStore, target: ObjectStore, keepsReadings: Bool = false) {
        self.source = source
        self.target = target
        self.keepsReadings = keepsReadings
    }

    /// The entities to copy, referenced ones first; owned entities come with their owners.
    var order: [EntityDescription] {
        let owned = Set(
            target.schema.entities.flatMap { $0.relationships.filter { $0.deleteRule == .cascade }.map(\.destination) })
        var remaining = target.schema.entities.filter { !owned.contains($0.name) }
        var ordered: [EntityDescription] = []
        while !remaining.isEmpty {
            let placed = Set(ordered.map(\.name))
            let index =
                remaining.firstIndex { entity in
                    entity.relationships.allSatisfy {
                        placed.contains($0.destination) || owned.contains($0.destination)
                            || $0.destination == entity.name
                    }
                } ?? 0
            ordered.append(remaining.remove(at: index))
        }
        return ordered
    }

    /// What a copy did with each object of the source (objects owned by others, such as
    /// photos, are counted with their owners).
    public struct Counts: Equatable, Sendable {
        /// Inserted: the target had no such object.
        public var inserted = 0
        /// Matched, and took values: later ones, or ones the match lacked.
        public var updated = 0
        /// Matched, with nothing to take: already in the target, as new.
        public var unchanged = 0
        /// Deleted in the target: left deleted.
        public var deleted = 0

        public init() {}

        public var total: Int { inserted + updated + unchanged + deleted }
        /// Objects the target changed for.
        public var changed: Int { inserted + updated }

        mutating func add(_ outcome: Outcome) {
            switch outcome {
            case .inserted: inserted += 1
            case .updated: updated += 1
            case .unchanged: unchanged += 1
            case .deleted: deleted += 1
            }
        }
    }

    enum Outcome { case inserted, updated, unchanged, deleted }

    /// An object of the source: its values and the clock readings of its properties.
    struct SourceObject {
        let entity: EntityDescription
        let id: GlobalID
        let values: [String: PropertyValue]
        let clocks: [String: HLC]
    }

    /// Copies everything. `afterBatch` is called after each batch with (objects done, total).
    ///
    /// - Returns: what became of the source's objects.
    @discardableResult
    public func run(author: String = "seed", afterBatch: (Int, Int) throws -> Void = { _, _ in }) throws -> Counts {
        let entities = order
        var work: [SourceObject] = []
        for entity in entities {
            guard let sourceEntity = source.schema.entity(named: entity.name) else { continue }
            let objects = try source.read { db in
                try GlobalID.fetchAll(
                    db, sql: "SELECT id FROM \(sourceEntity.table.quotedDatabaseIdentifier) ORDER BY id"
                ).compactMap { id in
                    try Self.sourceObject(entity, sourceEntity, id: id, db)
                }
            }
            work += objects
        }
        var state = CopyState()
        var counts = Counts()
        var done = 0
        if keepsReadings {
            // What the source deleted goes from the target too, where an earlier run copied it.
            let deleted = try source.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT objectID, entity FROM \(EngineTables.tombstone) WHERE mergedInto IS NULL ORDER BY objectID"
                )
                .compactMap { row -> ObjectID? in
                    guard let id = GlobalID(row[0] as String), let entity = row[1] as String? else { return nil }
                    return ObjectID(entity: entity, id: id)
                }
            }
            let gone = try target.save(author: author) { context in
                var gone = 0
                for object in deleted where target.schema.entity(named: object.entity) != nil {
                    guard try context.values(of: object.entity, id: object.id) != nil else { continue }
                    try context.delete(object.entity, id: object.id)
                    gone += 1
                }
                return gone
            }
            counts.deleted += gone
        }
        while done < work.count {
            let batch = work[done..<min(done + batchSize, work.count)]
            let outcomes = try target.save(author: author) { context in
                try batch.map { object in try copy(object, state: &state, in: context) }
            }
            for outcome in outcomes { counts.add(outcome) }
            done += batch.count
            try afterBatch(done, work.count)
        }
        return counts
    }

    /// The source's object `id`, described as the target's `entity`.
    private static func sourceObject(
        _ entity: EntityDescription, _ sourceEntity: EntityDescription, id: GlobalID,
        _ db: Database
    ) throws -> SourceObject? {
        guard let values = try RowWriter.values(sourceEntity, id: id, db) else { return nil }
        return SourceObject(
            entity: entity, id: id, values: values, clocks: try PropertyClocks.clocks(of: id, in: sourceEntity, db))
    }

    /// Copies or matches one object.
    private func copy(_ object: SourceObject, state: inout CopyState, in context: SaveContext) throws -> Outcome {
        let entity = object.entity
        let id = object.id
        // Properties this version of the model knows, with references to what they now are;
        // owned objects (cascading relationships) are copied only when needed, below.
        var wanted: [String: PropertyValue] = [:]
        var owned: [String: GlobalID] = [:]
        for (name, value) in object.values
        where entity.type(of: name) != nil && (keepsReadings || name != entity.modificationDateAttribute) {
            if case .reference(let target) = value {
                guard let relationship = entity.relationships.first(where: { $0.name == name }) else { continue }
                if relationship.deleteRule == .cascade {
                    owned[name] = target
                } else {
                    wanted[name] = state.mapped[target].map(PropertyValue.reference) ?? .null
                }
            } else {
                wanted[name] = value
            }
        }
        func copyOwned(_ name: String, _ target: GlobalID, state: inout CopyState) throws -> PropertyValue {
            guard let destination = entity.relationships.first(where: { $0.name == name })?.destination else {
                return .null
            }
            return try self.copyOwned(destination, id: target, state: &state, in: context).map(PropertyValue.reference)
                ?? .null
        }
        // A link that belongs to an object not copied (one the source points at but does not
        // hold) would have half a key: it stays behind.
        for name in entity.belongingRelationships where object.values[name] != .null && object.values[name] != nil {
            if wanted[name] == .null { return .unchanged }
        }
        let key = Self.key(of: entity, values: object.values, references: wanted)
        if let existing = try match(entity, id: id, key: key, state: &state, in: context) {
            state.mapped[id] = existing.id
            let readings = try context.readings(of: ObjectID(entity: entity.name, id: existing.id), in: entity)
            // Whether the source's value of a property replaces the match's.
            func takes(_ name: String, _ value: PropertyValue) -> Bool {
                guard existing.values[name] != value else { return false }
                if let reading = object.clocks[name] { return readings[name].map { reading > $0 } ?? true }
                return !Deduplicator.isEmpty(value) && Deduplicator.isEmpty(existing.values[name])
            }
            var changes = wanted.filter { takes($0.key, $0.value) }
            for (name, target) in owned where takes(name, .reference(target)) {
                changes[name] = try copyOwned(name, target, state: &state)
            }
            guard !changes.isEmpty else { return .unchanged }
            if keepsReadings {
                try context.carry(entity.name, id: existing.id, values: changes, readings: object.clocks)
            } else {
                try context.update(entity.name, id: existing.id, values: changes)
            }
            // An owned object the match no longer points at belongs to no one: it goes.
            for relationship in entity.relationships
            where relationship.deleteRule == .cascade && changes[relationship.name] != nil {
                if case .reference(let replaced)? = existing.values[relationship.name],
                    changes[relationship.name] != .reference(replaced)
                {
                    try context.delete(relationship.destination, id: replaced)
                }
            }
            return .updated
        }
        if try context.isDeleted(id) { return .deleted }
        for (name, target) in owned { wanted[name] = try copyOwned(name, target, state: &state) }
        if keepsReadings {
            try context.carry(entity.name, id: id, values: wanted, readings: object.clocks)
        } else {
            try context.insert(entity.name, id: id, values: wanted)
        }
        state.mapped[id] = id
        if let key { state.keys[entity.name]?[key] = id }
        return .inserted
    }

    /// What a run has learned: where each source object went, and the target's keys per entity.
    struct CopyState {
        var mapped: [GlobalID: GlobalID] = [:]
        var keys: [String: [String: GlobalID]] = [:]
    }

    /// An object's unique key (``EntityDescription/uniqueKey``) as one text: its texts'
    /// ``UniqueKey``s and the IDs of what it points at (`references`: already the target's),
    /// joined; `nil` when a part is missing.
    static func key(
        of entity: EntityDescription, values: [String: PropertyValue], references: [String: PropertyValue]
    ) -> String? {
        guard !entity.uniqueKey.isEmpty else { return nil }
        var parts: [String] = []
        for part in entity.uniqueKey {
            switch entity.type(of: part) == .reference ? references[part] : values[part] {
            case .string(let text)?:
                let key = UniqueKey.normalize(text)
                guard !key.isEmpty else { return nil }
                parts.append(key)
            case .reference(let target)?: parts.append(target.description)
            default: return nil
            }
        }
        return parts.joined(separator: "\u{1F}")
    }

    /// The target's object for a source object: same ID, or same unique key — unless the
    /// target deleted the object of that ID.
    private func match(
        _ entity: EntityDescription, id: GlobalID, key: String?, state: inout CopyState, in context: SaveContext
    ) throws -> (id: GlobalID, values: [String: PropertyValue])? {
        if let current = try context.values(of: entity.name, id: id) { return (id, current) }
        guard try !context.isDeleted(id), let key else { return nil }
        if state.keys[entity.name] == nil {
            // Read once per entity: one pass over the target's table, first ID per key.
            var keys: [String: GlobalID] = [:]
            let columns = entity.uniqueKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let rows = try Row.fetchAll(
                context.db, sql: "SELECT id, \(columns) FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id")
            for row in rows {
                guard let rowID = GlobalID(row[0] as String) else { continue }
                var values: [String: PropertyValue] = [:]
                for (index, part) in entity.uniqueKey.enumerated() {
                    let stored = row[index + 1] as String?
                    values[part] =
                        entity.type(of: part) == .reference
                        ? stored.flatMap(GlobalID.init).map(PropertyValue.reference) : stored.map(PropertyValue.string)
                }
                if let rowKey = Self.key(of: entity, values: values, references: values), keys[rowKey] == nil {
                    keys[rowKey] = rowID
                }
            }
            state.keys[entity.name] = keys
        }
        guard let found = state.keys[entity.name]?[key], let current = try context.values(of: entity.name, id: found)
        else { return nil }
        return (found, current)
    }

    /// Copies an object owned through a cascading relationship (a photo), once.
    private func copyOwned(_ entityName: String, id: GlobalID, state: inout CopyState, in context: SaveContext) throws
        -> GlobalID?
    {
        if let done = state.mapped[id] { return done }
        guard let entity = target.schema.entity(named: entityName),
            let sourceEntity = source.schema.entity(named: entityName),
            let object = try source.read({ db in try Self.sourceObject(entity, sourceEntity, id: id, db) })
        else { return nil }
        _ = try copy(object, state: &state, in: context)
        return state.mapped[id]
    }
}
