import Foundation
import GRDB

/// The device's clock as one save reads it, and the reading the save's inserted rows are
/// written with.
///
/// The clock is read once a save, at its first insert or at its end, whichever comes first: a
/// save that changes nothing reads nothing. GRDB begins every write with `BEGIN IMMEDIATE`,
/// which takes the store's write lock and its latest snapshot before the save's body runs, so
/// the clock read at the first insert is the one the end of the save would read
/// (``RememberedSave`` relies on the same).
///
/// An insert writes its row's readings in its own statement, at ``insertReading()``: the
/// reading of a save that updates no object holding a later one (``LocalClock/reading(for:now:peer:current:schema:_:)``
/// is then the next reading after the device's clock). Setting them once the save's reading is
/// known wrote the row a second time, a twentieth of a save. A save that ends with another
/// reading (it updated an object whose reading is ahead of the device's clock) writes its
/// inserted rows' readings again (``PropertyClocks/stamp(_:clock:schema:insertsWritten:_:)``).
final class SaveClock {
    let now: Date
    private let peer: String
    private let shipped: HLC?
    private let remembered: RememberedSave
    private let db: Database
    private var device: RememberedSave.Start?
    private var inserts: HLC??

    /// - Parameter shipped: the fixed reading of a shipped save (``ObjectStore/saveShipped(author:reading:_:)``).
    init(now: Date, peer: String, shipped: HLC?, remembered: RememberedSave, db: Database) {
        self.now = now
        self.peer = peer
        self.shipped = shipped
        self.remembered = remembered
        self.db = db
    }

    /// The device's clock as the store holds it, the outbox's last number when known, and the
    /// store file's data version then (``RememberedSave/current(_:)``); read at the first call only.
    func deviceClock() throws -> RememberedSave.Start {
        if let device { return device }
        let read = try remembered.current(db)
        device = read
        return read
    }

    /// The reading inserted rows are written with: the shipped reading, or the next after the
    /// device's trusted clock; `nil` when there is none (the clock holds the last reading there
    /// can be), and the save's end stamps the rows.
    func insertReading() throws -> HLC? {
        if let inserts { return inserts }
        let reading =
            try shipped ?? HLC.next(after: LocalClock.trusted(deviceClock().clock, now: now), now: now, peer: peer)
        inserts = .some(reading)
        return reading
    }
}
