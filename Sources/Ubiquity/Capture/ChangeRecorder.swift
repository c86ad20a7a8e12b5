import Foundation

/// Accumulates the changes of one save, coalescing several operations on the same object:
/// insert + update is one insert, update + update one update, insert + delete nothing at all.
/// Merges of copies are kept in the order they were made.
struct ChangeRecorder {
    private var inserted: [ObjectID: [String: PropertyValue]] = [:]
    private var updated: [ObjectID: [String: PropertyValue]] = [:]
    private var deleted: Set<ObjectID> = []
    private var merged: [ObjectMerge] = []
    /// Properties written with a reading of their own (carried from another store), per object.
    private var carried: [ObjectID: [String: HLC]] = [:]
    /// Order of first appearance, so that records list objects in the order they were touched.
    private var order: [ObjectID] = []

    mutating func recordInsert(_ object: ObjectID, values: [String: PropertyValue]) {
        remember(object)
        inserted[object] = values
    }

    /// The readings of values just recorded for `object` that were carried from another store
    /// (``SaveContext/carry(_:id:values:readings:)``): the record lists them with the change.
    mutating func recordReadings(_ readings: [String: HLC], of object: ObjectID) {
        guard let written = inserted[object] ?? updated[object] else { return }
        for (name, reading) in readings where written[name] != nil { carried[object, default: [:]][name] = reading }
    }

    mutating func recordUpdate(_ object: ObjectID, values: [String: PropertyValue]) {
        guard !values.isEmpty else { return }
        // A property written again in the same save takes the save's reading.
        if carried[object] != nil { for name in values.keys { carried[object]![name] = nil } }
        remember(object)
        if inserted[object] != nil {
            inserted[object]!.merge(values) { _, new in new }
        } else {
            updated[object, default: [:]].merge(values) { _, new in new }
        }
    }

    mutating func recordDelete(_ object: ObjectID) {
        remember(object)
        updated[object] = nil
        carried[object] = nil
        if inserted.removeValue(forKey: object) == nil {
            deleted.insert(object)
        }
    }

    /// A copy merged into another: listed as deleted too, for builds that know no merges.
    mutating func recordMerge(_ merge: ObjectMerge) {
        recordDelete(merge.object)
        merged.append(merge)
    }

    /// Whether the save changed `object` so far.
    func touched(_ object: ObjectID) -> Bool {
        inserted[object] != nil || updated[object] != nil || deleted.contains(object)
    }

    private mutating func remember(_ object: ObjectID) {
        if inserted[object] == nil, updated[object] == nil, !deleted.contains(object) {
            order.append(object)
        }
    }

    private func readings(_ object: ObjectID) -> [String: HLC]? {
        guard let readings = carried[object], !readings.isEmpty else { return nil }
        return readings
    }

    func record(transactionID: GlobalID, timestamp: Date, author: String, clock: HLC?) -> TransactionRecord {
        TransactionRecord(
            transactionID: transactionID,
            timestamp: timestamp,
            author: author,
            inserted: order.compactMap { id in
                inserted[id].map { ObjectChange(object: id, values: $0, readings: readings(id)) }
            },
            updated: order.compactMap { id in
                updated[id].map { ObjectChange(object: id, values: $0, readings: readings(id)) }
            },
            deleted: order.filter { deleted.contains($0) },
            merged: merged,
            clock: clock
        )
    }
}
