import Foundation
import GRDB

/// This device's clock: what the reading of its next save comes after.
///
/// Readings order edits on every peer alike, by their values only (``HLC``, ``MergePolicy``).
/// This decides only which readings this device writes, so it may go by the device's own wall
/// clock:
///
/// - The clock follows the readings the device sees, as a hybrid logical clock does, but
///   never one more than ``trustedAhead`` ahead of its wall clock. A device whose clock is ten
///   years fast no longer drags every other device's clock into its future, and devices that
///   join later do not inherit it; this device's own clock, once set right, leaves its wrong
///   readings behind too.
/// - A save is stamped after every reading held by the objects it updates, however far ahead:
///   an edit made after seeing a value wins over it on every peer.
/// - The wall clock reads as 1970 before 1970 and as the end of 9999 after it, for readings
///   and for the dates a save sets: a device with a wrong clock still writes what peers accept.
enum LocalClock {
    /// How far ahead of the wall clock a reading may be and still move this device's clock:
    /// more than any time zone mistake (a clock set to local time read as UTC is at most 14
    /// hours off), and a clock ahead by less catches up by itself within a day.
    static let trustedAhead: TimeInterval = 24 * 3600

    /// The wall clock as the store keeps dates: from 1970 to the end of 9999 (whole seconds at
    /// the end, so that the date survives any encoding).
    static func readable(_ now: Date) -> Date {
        let seconds = now.timeIntervalSince1970
        guard seconds.isFinite, seconds >= 0 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: min(seconds, ValueRule.dateRange.upperBound.rounded(.down)))
    }

    /// Whether `reading` may move the clock of a device whose wall clock reads `now`.
    static func isTrusted(_ reading: HLC, now: Date) -> Bool {
        Double(reading.wall) <= (readable(now).timeIntervalSince1970 + trustedAhead) * 1000
    }

    /// The reading of a save made at `now` that wrote `record`'s changes: after the device's
    /// clock and after every reading held by an object it updates — the values the user saw,
    /// and those written before them (an object's insert may arrive after an edit of it).
    ///
    /// - Throws: ``StoreError/noLaterClockReading(_:)`` when an object holds the last reading
    ///   there can be.
    static func reading(for record: TransactionRecord, now: Date, peer: String, schema: Schema, _ db: Database) throws
        -> HLC
    {
        try reading(for: record, now: now, peer: peer, current: trustedCurrent(now: now, db), schema: schema, db)
    }

    /// ``reading(for:now:peer:_:)`` after the device's clock `current` (``trustedCurrent``),
    /// read once by a save that also moves it (``clock(stored:after:now:peer:)``).
    static func reading(
        for record: TransactionRecord, now: Date, peer: String, current: HLC?, schema: Schema,
        _ db: Database
    ) throws -> HLC {
        var newest: (clock: HLC, object: ObjectID)?
        for change in record.updated {
            guard let entity = schema.entity(named: change.object.entity),
                let clock = try PropertyClocks.clocks(of: change.object.id, in: entity, db).values.max(),
                newest.map({ clock > $0.clock }) ?? true
            else { continue }
            newest = (clock, change.object)
        }
        // Values carried from another store with their readings: the save comes after them all.
        let carried = [record.inserted, record.updated].joined().compactMap { $0.readings?.values.max() }.max()
        let floor = [current, newest?.clock, carried].compactMap { $0 }.max()
        // Only the last reading there can be has no successor. The device's own clock there
        // (after a hostile file) yields to what the objects need.
        if let reading = HLC.next(after: floor, now: now, peer: peer)
            ?? HLC.next(after: newest?.clock, now: now, peer: peer)
        {
            return reading
        }
        throw StoreError.noLaterClockReading(
            newest.map { "\($0.object.entity) \($0.object.id)" } ?? "this device's clock")
    }

    /// Moves the device's clock up to `reading` (made here or seen in a file), unless it is
    /// further ahead of the wall clock than ``trustedAhead``.
    static func observe(_ reading: HLC, now: Date, peer: String, _ db: Database) throws {
        let stored = try PropertyClocks.current(db)
        let after = clock(stored: stored, after: reading, now: now, peer: peer)
        if after != stored, let after { try PropertyClocks.setCurrent(after, db) }
    }

    /// The device's clock after a save or an import read `stored` (``PropertyClocks/current(_:)``)
    /// and made or saw `reading`: moved up to it when `reading` is trusted and the trusted clock
    /// is behind it, else `stored` as it was (a clock too far ahead is left behind only by a
    /// reading that moves it). A save hands this to its outbox row, read once a save.
    static func clock(stored: HLC?, after reading: HLC, now: Date, peer: String) -> HLC? {
        guard isTrusted(reading, now: now) else { return stored }
        let current = trusted(stored, now: now)
        let merged = HLC.merged(current, seen: reading, peer: peer)
        return merged != current ? merged : stored
    }

    /// The device's clock, unless it is too far ahead of the wall clock (it followed a wrong
    /// clock, its own or before this rule): then the wall clock alone.
    static func trustedCurrent(now: Date, _ db: Database) throws -> HLC? {
        trusted(try PropertyClocks.current(db), now: now)
    }

    /// `stored` unless it is too far ahead of the wall clock.
    static func trusted(_ stored: HLC?, now: Date) -> HLC? {
        stored.flatMap { isTrusted($0, now: now) ? $0 : nil }
    }
}
