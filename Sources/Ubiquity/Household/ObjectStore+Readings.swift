import Foundation
import GRDB

/// Clock readings for what travels beside the logs (claims): a reading of this device's clock,
/// and the readings of an object's properties, so that a claim can be ordered against the
/// changes it is about.
extension ObjectStore {
    /// A new reading of this device's clock, after its clock, after every property reading of
    /// `object` and after `floor`: a claim made after seeing an item (or another's claim) comes
    /// after them on every device. The device's clock moves to it, so the device's next save
    /// comes after it too.
    ///
    /// - Throws: ``StoreError/noLaterClockReading(_:)`` when there is no later reading.
    public func nextReading(after floor: HLC?, object: (entity: String, id: GlobalID)) throws -> HLC {
        try write { db in
            let now = clock.now()
            var readings = [try LocalClock.trustedCurrent(now: now, db), floor].compactMap { $0 }
            if let entity = schema.entity(named: object.entity),
                let newest = try PropertyClocks.clocks(of: object.id, in: entity, db).values.max()
            {
                readings.append(newest)
            }
            guard let reading = HLC.next(after: readings.max(), now: now, peer: peer) else {
                throw StoreError.noLaterClockReading("\(object.entity) \(object.id)")
            }
            try LocalClock.observe(reading, now: now, peer: peer, db)
            return reading
        }
    }

    /// The reading of the last write of each property of `id` (empty when it has none).
    public func propertyReadings(entity: String, id: GlobalID) throws -> [String: HLC] {
        guard let description = schema.entity(named: entity) else { return [:] }
        return try read { db in try PropertyClocks.clocks(of: id, in: description, db) }
    }
}

extension ObjectStore {
    /// Moves this device's clock up to `reading` (a claim seen), unless the clock is already
    /// past it or the reading is too far ahead of the wall clock: writes only when it moves.
    public func observeReading(_ reading: HLC) throws {
        let now = clock.now()
        let current = try read { db in try LocalClock.trustedCurrent(now: now, db) }
        guard LocalClock.isTrusted(reading, now: now), current.map({ reading > $0 }) ?? true else { return }
        try write { db in try LocalClock.observe(reading, now: now, peer: peer, db) }
    }
}
