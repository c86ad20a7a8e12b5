import Foundation

/// The values of one object in a transaction: all of them for an insert, the changed ones for
/// an update.
public struct ObjectChange: Hashable, Sendable, Codable {
    public let object: ObjectID
    public var values: [String: PropertyValue]
    /// Values carried from another store with the readings they were written at there
    /// (``SaveContext/carry(_:id:values:readings:)``, a merge of two lists): each property named
    /// here carries its own reading, never later than the record's; the others the record's.
    /// `nil` for every other change. Builds before it read the record's reading for all.
    public var readings: [String: HLC]?

    public init(object: ObjectID, values: [String: PropertyValue], readings: [String: HLC]? = nil) {
        self.object = object
        self.values = values
        self.readings = readings
    }

    /// The reading `property`'s value was written at, in a record read at `clock`: its carried
    /// reading when it has one not after `clock` (a record cannot carry a later write than its
    /// own), else `clock`.
    @inline(__always)
    func reading(of property: String, recordClock clock: HLC) -> HLC {
        guard let readings, let carried = readings[property], carried < clock else { return clock }
        return carried
    }
}

/// One copy of an object merged into another by a deduplication (``Deduplicator``): from then
/// on they are one object on every peer that applies it (``MergedCopies``).
public struct ObjectMerge: Hashable, Sendable, Codable {
    /// The copy merged away.
    public let object: ObjectID
    /// The copy it was merged into, of the same entity.
    public let into: GlobalID
    /// Values the deduplication chose for the merged object (the spelling most items use),
    /// written with ``reading``: every peer applies them as writes with that reading.
    public let chosen: [String: PropertyValue]
    /// Just after the newest write of the chosen properties among the copies the deduplication
    /// saw: it wins over what it chose among, and loses to any later edit. `nil` with no values.
    public let reading: HLC?

    public init(object: ObjectID, into: GlobalID, chosen: [String: PropertyValue] = [:], reading: HLC? = nil) {
        self.object = object
        self.into = into
        self.chosen = chosen
        self.reading = reading
    }
}

/// What one save changed: inserted objects with their values, updated objects with the changed
/// properties, deleted IDs, copies merged. This is what the outbox keeps and what the sync
/// engine exports.
public struct TransactionRecord: Hashable, Sendable, Codable {
    /// Unique per transaction, so that a log can be recognised when it arrives twice.
    public let transactionID: GlobalID
    public let timestamp: Date
    /// A short label for humans and logs ("item add", "import DefaultData.xml").
    public let author: String
    public let inserted: [ObjectChange]
    public let updated: [ObjectChange]
    public let deleted: [ObjectID]
    /// Copies merged into others by a deduplication. Each is in ``deleted`` too, so that a build
    /// that knows no merges at least deletes the duplicate; builds that do merge it instead.
    public let merged: [ObjectMerge]
    /// The hybrid logical clock reading of the save: every property it wrote carries it.
    public let clock: HLC?

    public init(
        transactionID: GlobalID, timestamp: Date, author: String,
        inserted: [ObjectChange], updated: [ObjectChange], deleted: [ObjectID], merged: [ObjectMerge] = [],
        clock: HLC? = nil
    ) {
        self.clock = clock
        self.merged = merged
        self.transactionID = transactionID
        self.timestamp = timestamp
        self.author = author
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && merged.isEmpty }

    /// The same changes with the save's clock reading.
    func stamped(_ clock: HLC) -> TransactionRecord {
        TransactionRecord(
            transactionID: transactionID, timestamp: timestamp, author: author,
            inserted: inserted, updated: updated, deleted: deleted, merged: merged, clock: clock)
    }

    /// Every object the transaction touched.
    public var objectIDs: Set<ObjectID> {
        Set(inserted.map(\.object)).union(updated.map(\.object)).union(deleted)
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID, timestamp, author, inserted, updated, deleted, merged, clock
    }

    /// Records written before merges existed have no `merged`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            transactionID: try container.decode(GlobalID.self, forKey: .transactionID),
            timestamp: try container.decode(Date.self, forKey: .timestamp),
            author: try container.decode(String.self, forKey: .author),
            inserted: try container.decode([ObjectChange].self, forKey: .inserted),
            updated: try container.decode([ObjectChange].self, forKey: .updated),
            deleted: try container.decode([ObjectID].self, forKey: .deleted),
            merged: try container.decodeIfPresent([ObjectMerge].self, forKey: .merged) ?? [],
            clock: try container.decodeIfPresent(HLC.self, forKey: .clock))
    }
}
