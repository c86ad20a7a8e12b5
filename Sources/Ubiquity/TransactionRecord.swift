import Foundation

/// The values of one object in a transaction: all of them for an insert, the changed ones for
/// an update.
public struct ObjectChange: Hashable, Sendable, Codable {
    public let object: ObjectID
    public var values: [String: PropertyValue]

    public init(object: ObjectID, values: [String: PropertyValue]) {
        self.object = object
        self.values = values
    }
}

/// What one save changed: inserted objects with their values, updated objects with the changed
/// properties, deleted IDs. This is what the outbox keeps and what the sync engine exports.
public struct TransactionRecord: Hashable, Sendable, Codable {
    /// Unique per transaction, so that a log can be recognised when it arrives twice.
    public let transactionID: GlobalID
    public let timestamp: Date
    /// A short label for humans and logs ("item add", "import DefaultData.xml").
    public let author: String
    public let inserted: [ObjectChange]
    public let updated: [ObjectChange]
    public let deleted: [ObjectID]
    /// The hybrid logical clock reading of the save: every property it wrote carries it.
    public let clock: HLC?

    public init(
        transactionID: GlobalID, timestamp: Date, author: String,
        inserted: [ObjectChange], updated: [ObjectChange], deleted: [ObjectID], clock: HLC? = nil
    ) {
        self.clock = clock
        self.transactionID = transactionID
        self.timestamp = timestamp
        self.author = author
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The same changes with the save's clock reading.
    func stamped(_ clock: HLC) -> TransactionRecord {
        TransactionRecord(transactionID: transactionID, timestamp: timestamp, author: author,
                          inserted: inserted, updated: updated, deleted: deleted, clock: clock)
    }

    /// Every object the transaction touched.
    public var objectIDs: Set<ObjectID> {
        Set(inserted.map(\.object)).union(updated.map(\.object)).union(deleted)
    }
}
