import Foundation
import GRDB

/// Deep-copies one store's objects into another, entity by entity, matching on unique
/// attributes so that nothing is copied twice and relationships point at the right objects
/// (the book's "Merge with Cloud?", and merging a kept store back).
///
/// - Objects with a unique attribute are matched by its key (``UniqueKey``); a match takes the
///   properties it lacks from the copy, anything else is inserted under its own global ID with
///   its modification date set to now.
/// - Objects without one (photos) are copied only with the object that owns them through a
///   cascading relationship, when that object needs one.
/// - Saves a batch at a time: a copy interrupted anywhere and run again finds what the earlier
///   run committed (by key or by ID) and copies only the rest.
public struct StoreSeeder {
    public let source: ObjectStore
    public let target: ObjectStore
    public var batchSize = 500

    public init(source: ObjectStore, target: ObjectStore) {
        self.source = source
        self.target = target
    }

    /// The entities to copy, referenced ones first; owned entities come with their owners.
    var order: [EntityDescription] {
        let owned = Set(target.schema.entities.flatMap { $0.relationships.filter { $0.deleteRule == .cascade }.map(\.destination) })
        var remaining = target.schema.entities.filter { !owned.contains($0.name) }
        var ordered: [EntityDescription] = []
        while !remaining.isEmpty {
            let placed = Set(ordered.map(\.name))
            let index = remaining.firstIndex { entity in
                entity.relationships.allSatisfy { placed.contains($0.destination) || owned.contains($0.destination) || $0.destination == entity.name }
            } ?? 0
            ordered.append(remaining.remove(at: index))
        }
        return ordered
    }

    /// Copies everything. `progress` is called after each batch with (objects done, total).
    ///
    /// - Returns: how many objects were inserted or changed in the target.
    @discardableResult
    public func run(author: String = "seed", afterBatch: (Int, Int) throws -> Void = { _, _ in }) throws -> Int {
        let entities = order
        var work: [(EntityDescription, GlobalID, [String: PropertyValue])] = []
        for entity in entities {
            guard let sourceEntity = source.schema.entity(named: entity.name) else { continue }
            let objects = try source.read { db in
                try GlobalID.fetchAll(db, sql: "SELECT id FROM \(sourceEntity.table.quotedDatabaseIdentifier) ORDER BY id").compactMap { id in
                    try RowWriter.values(sourceEntity, id: id, db).map { (entity, id, $0) }
                }
            }
            work += objects
        }
        var state = CopyState()
        var changed = 0
        var done = 0
        while done < work.count {
            let batch = work[done..<min(done + batchSize, work.count)]
            changed += try target.save(author: author) { context in
                var count = 0
                for (entity, id, values) in batch {
                    count += try copy(entity, id: id, values: values, state: &state, in: context) ? 1 : 0
                }
                return count
            }
            done += batch.count
            try afterBatch(done, work.count)
        }
        return changed
    }

    /// Copies or matches one object; returns whether the target changed.
    private func copy(_ entity: EntityDescription, id: GlobalID, values: [String: PropertyValue],
                      state: inout CopyState, in context: SaveContext) throws -> Bool {
        // Properties this version of the model knows, with references to what they now are;
        // owned objects (cascading relationships) are copied only when needed, below.
        var wanted: [String: PropertyValue] = [:]
        var owned: [String: GlobalID] = [:]
        for (name, value) in values where entity.type(of: name) != nil && name != entity.modificationDateAttribute {
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
            guard let destination = entity.relationships.first(where: { $0.name == name })?.destination else { return .null }
            return try self.copyOwned(destination, id: target, state: &state, in: context).map(PropertyValue.reference) ?? .null
        }
        if let existing = try match(entity, id: id, values: values, state: &state, in: context) {
            state.mapped[id] = existing.id
            // The match keeps what it has, and takes what it lacks.
            var missing = wanted.filter { name, value in
                !Deduplicator.isEmpty(value) && Deduplicator.isEmpty(existing.values[name])
            }
            for (name, target) in owned where Deduplicator.isEmpty(existing.values[name]) {
                missing[name] = try copyOwned(name, target, state: &state)
            }
            guard !missing.isEmpty else { return false }
            try context.update(entity.name, id: existing.id, values: missing)
            return true
        }
        for (name, target) in owned { wanted[name] = try copyOwned(name, target, state: &state) }
        try context.insert(entity.name, id: id, values: wanted)
        state.mapped[id] = id
        if let unique = entity.uniqueAttribute, case .string(let text)? = values[unique] {
            state.keys[entity.name]?[UniqueKey.normalize(text)] = id
        }
        return true
    }

    /// What a run has learned: where each source object went, and the target's keys per entity.
    struct CopyState {
        var mapped: [GlobalID: GlobalID] = [:]
        var keys: [String: [String: GlobalID]] = [:]
    }

    /// The target's object for a source object: same ID, or same key of its unique attribute.
    private func match(_ entity: EntityDescription, id: GlobalID, values: [String: PropertyValue], state: inout CopyState,
                       in context: SaveContext) throws -> (id: GlobalID, values: [String: PropertyValue])? {
        if let current = try context.values(of: entity.name, id: id) { return (id, current) }
        guard let unique = entity.uniqueAttribute, case .string(let text)? = values[unique] else { return nil }
        if state.keys[entity.name] == nil {
            // Read once per entity: one pass over the target's table, first ID per key.
            var keys: [String: GlobalID] = [:]
            let rows = try Row.fetchAll(context.db, sql: """
                SELECT id, \(unique.quotedDatabaseIdentifier) FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id
                """)
            for row in rows {
                guard let rowID = GlobalID(row[0] as String), let name = row[1] as String? else { continue }
                let key = UniqueKey.normalize(name)
                if keys[key] == nil { keys[key] = rowID }
            }
            state.keys[entity.name] = keys
        }
        let key = UniqueKey.normalize(text)
        guard !key.isEmpty, let found = state.keys[entity.name]?[key],
              let current = try context.values(of: entity.name, id: found) else { return nil }
        return (found, current)
    }

    /// Copies an object owned through a cascading relationship (a photo), once.
    private func copyOwned(_ entityName: String, id: GlobalID, state: inout CopyState, in context: SaveContext) throws -> GlobalID? {
        if let done = state.mapped[id] { return done }
        guard let entity = target.schema.entity(named: entityName), let sourceEntity = source.schema.entity(named: entityName),
              let values = try source.read({ db in try RowWriter.values(sourceEntity, id: id, db) }) else { return nil }
        _ = try copy(entity, id: id, values: values, state: &state, in: context)
        return state.mapped[id]
    }
}
