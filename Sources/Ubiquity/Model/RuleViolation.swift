import Foundation
import GRDB

/// Why a transaction or a baseline from the cloud folder is refused: the first thing in it
/// that breaks the schema's rules. It is refused whole — nothing of it is applied.
public struct RuleViolation: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

// MARK: - What needs no database

extension Schema {
    /// Checks everything in a log's transaction that needs no database: known entities and
    /// properties, values of the right type that obey their rules, a sane clock reading, each
    /// object under one entity.
    func check(_ record: TransactionRecord) throws(RuleViolation) {
        let seconds = record.timestamp.timeIntervalSince1970
        guard seconds.isFinite, ValueRule.dateRange.contains(seconds) else {
            throw RuleViolation("its timestamp is not a date from 1970 to 9999")
        }
        if let clock = record.clock { try check(clock, what: "its clock reading") }
        var entities: [GlobalID: String] = [:]
        func claim(_ object: ObjectID) throws(RuleViolation) {
            if let other = entities.updateValue(object.entity, forKey: object.id), other != object.entity {
                throw RuleViolation("object \(object.id) is both a \(other) and a \(object.entity)")
            }
        }
        for object in record.deleted {
            guard entity(named: object.entity) != nil else {
                throw RuleViolation("it deletes an object of unknown entity \(object.entity.debugDescription)")
            }
            try claim(object)
        }
        for change in record.inserted + record.updated {
            try check(change.object, values: change.values)
            for reading in change.readings?.values ?? [:].values { try check(reading, what: "a carried reading") }
            try claim(change.object)
        }
        for merge in record.merged {
            try check(merge, claim: claim)
        }
    }

    /// Checks a merge: two different copies of a known entity, chosen values as a change's,
    /// with a sane reading.
    private func check(_ merge: ObjectMerge, claim: (ObjectID) throws(RuleViolation) -> Void) throws(RuleViolation) {
        guard merge.object.id != merge.into else { throw RuleViolation("it merges \(merge.object.id) into itself") }
        let target = ObjectID(entity: merge.object.entity, id: merge.into)
        try check(target, values: merge.chosen)
        switch merge.reading {
        case let reading?: try check(reading, what: "a merge's reading")
        case nil where !merge.chosen.isEmpty: throw RuleViolation("a merge chooses values without a reading")
        case nil: break
        }
        try claim(merge.object)
        try claim(target)
    }

    /// Checks one object's values against its entity's properties and rules.
    func check(_ object: ObjectID, values: [String: PropertyValue]) throws(RuleViolation) {
        guard let entity = entity(named: object.entity) else {
            throw RuleViolation("unknown entity \(object.entity.debugDescription)")
        }
        for (property, value) in values {
            // One lookup a value: its column gives its type and its rule (every value of every
            // imported log is checked here).
            guard let column = entity.column(of: property) else {
                throw RuleViolation("\(entity.name) has no property \(property.debugDescription)")
            }
            let type = entity.columnTypes[column]
            guard value.fits(type) else {
                throw RuleViolation("\(entity.name) \(object.id) \(property): \(value) is not a \(type.rawValue)")
            }
            if let reason = entity.columnRules[column].violation(of: value) {
                throw RuleViolation("\(entity.name) \(object.id) \(property): \(reason)")
            }
        }
    }

    /// Checks a clock reading: from 1970 to 9999, no negative counter, a plain peer name.
    func check(_ clock: HLC, what: @autoclosure () -> String) throws(RuleViolation) {
        guard clock.wall >= 0, Double(clock.wall) <= ValueRule.dateRange.upperBound * 1000, clock.counter >= 0,
            HLC.isPeerName(clock.peer)
        else {
            throw RuleViolation("\(what()) \(clock.description.debugDescription) is not a valid reading")
        }
    }

    /// Checks a baseline: every object and tombstone as a log's, every reading sane.
    func check(_ baseline: Baseline) throws(RuleViolation) {
        var entities: [GlobalID: String] = [:]
        for (peer, seq) in baseline.covers where seq < 0 || !HLC.isPeerName(peer) {
            throw RuleViolation("it covers log \(seq) of \(peer.debugDescription), which cannot be")
        }
        for tombstone in baseline.tombstones {
            guard entity(named: tombstone.object.entity) != nil else {
                throw RuleViolation("a tombstone of unknown entity \(tombstone.object.entity.debugDescription)")
            }
            try check(tombstone.clock, what: "a tombstone's reading")
            entities[tombstone.object.id] = tombstone.object.entity
            if tombstone.mergedInto == tombstone.object.id {
                throw RuleViolation("a tombstone says \(tombstone.object.id) was merged into itself")
            }
        }
        for tombstone in baseline.tombstones {
            guard let target = tombstone.mergedInto else { continue }
            if let other = entities.updateValue(tombstone.object.entity, forKey: target),
                other != tombstone.object.entity
            {
                throw RuleViolation("object \(target) is both a \(other) and a \(tombstone.object.entity)")
            }
        }
        for object in baseline.objects {
            try check(object.object, values: object.values)
            for (property, clock) in object.clocks {
                guard object.values[property] != nil else {
                    throw RuleViolation(
                        "\(object.object.entity) \(object.object.id) has a reading for \(property) but no value")
                }
                try check(clock, what: "\(object.object.entity) \(object.object.id) \(property)'s reading")
            }
            if let other = entities.updateValue(object.object.entity, forKey: object.object.id),
                other != object.object.entity
            {
                throw RuleViolation("object \(object.object.id) is both a \(other) and a \(object.object.entity)")
            }
        }
    }
}

// MARK: - What needs the store

extension Merger {
    /// Checks what only the store can tell, for every object given before any of them is
    /// applied: an object is not already stored (or deleted) as another entity, and each
    /// reference points at an object of the relationship's destination — or at one not seen
    /// yet, which stays pending. What the store holds is read for all of them at once
    /// (``StoredEntities``), and returned.
    @discardableResult
    func check(_ objects: [(object: ObjectID, values: [String: PropertyValue])]) throws -> StoredEntities {
        var ids: [GlobalID] = []
        ids.reserveCapacity(objects.count)
        for (object, values) in objects {
            ids.append(object.id)
            for case .reference(let target) in values.values { ids.append(target) }
        }
        let stored = try StoredEntities(of: ids, schema: schema, db)
        // Nothing stored under any entity: nothing can be stored under another (an import of
        // new objects looked up each object and each of its references for nothing).
        guard !stored.holdsNone else { return stored }
        for (object, values) in objects {
            if let holder = stored.entity(holding: object.id, expected: object.entity), holder != object.entity {
                throw RuleViolation("object \(object.id) is a \(holder) here, not a \(object.entity)")
            }
            guard let entity = schema.entity(named: object.entity) else { continue }
            for relationship in entity.relationships {
                guard case .reference(let target)? = values[relationship.name] else { continue }
                if let holder = stored.entity(holding: target, expected: relationship.destination),
                    holder != relationship.destination
                {
                    throw RuleViolation(
                        "\(entity.name) \(object.id) \(relationship.name) points at a \(holder), not a \(relationship.destination)"
                    )
                }
            }
        }
        return stored
    }

    /// Checks every object a transaction names, before any of it is applied.
    ///
    /// - Returns: what the store held for them, for ``apply(_:from:checked:)``.
    @discardableResult
    func check(_ record: TransactionRecord) throws -> StoredEntities {
        var objects: [(object: ObjectID, values: [String: PropertyValue])] = []
        objects.reserveCapacity(
            record.deleted.count + record.inserted.count + record.updated.count + 2 * record.merged.count)
        for object in record.deleted { objects.append((object, [:])) }
        for change in record.inserted { objects.append((change.object, change.values)) }
        for change in record.updated { objects.append((change.object, change.values)) }
        for merge in record.merged {
            objects.append((merge.object, [:]))
            objects.append((ObjectID(entity: merge.object.entity, id: merge.into), merge.chosen))
        }
        return try check(objects)
    }
}
