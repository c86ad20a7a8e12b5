import Foundation
import GRDB
import GRDBSQLite

/// What this store's last save left, kept in memory so that the next save need not read it
/// back: the device's clock (``PropertyClocks/current(_:)``: a statement of four probes, about
/// 4 % of a save's time) and the outbox's last number (two more probes in the statement that
/// appends a save's row, ``Outbox/append(_:payload:clock:after:modelVersion:in:)``).
///
/// What the store holds is the truth; this is only a copy of what the store would answer, used
/// only while the store file cannot have changed since the save that left it. SQLite's data
/// version of the file (`SQLITE_FCNTL_DATA_VERSION`, read from the connection without running
/// a statement) says so:
///
/// - it moves on by one at each commit of the connection itself: the save's own, and any other
///   write through the store's writer (an import moving the clock, the exporter taking rows out);
/// - and again whenever the connection finds, as a transaction of it begins, that another
///   connection committed meanwhile — another process of this device, another store opened on
///   the same file. (It then drops the pages it cached: SQLite could not read correctly
///   otherwise.)
///
/// A save notes the version inside its transaction, once it began (GRDB begins a write with
/// `BEGIN IMMEDIATE`, which takes the file's latest snapshot, and its version), and leaves
/// its copy once it committed (a save that failed leaves none). The next save uses the copy
/// only when it finds that version plus the one of that save's own commit: nothing else
/// committed in between, through this connection or any other. Anything else — a version that
/// moved by more, one that cannot be read — only means the store is read again.
///
/// The copy is the clock the save put in its outbox row, which is what ``PropertyClocks/current(_:)``
/// reads back after it (the last row's clock, made after the metadata's), and that row's number,
/// the last one given: whatever else numbers or takes out rows (another process's save, the
/// exporter) commits, and so ends the copy. A save that carried no clock leaves no copy.
final class RememberedSave: @unchecked Sendable {
    /// What a save starts from: the device's clock, the outbox's last number when the copy
    /// gives it (else `nil`: the row is numbered by the store), and the file's data version.
    struct Start {
        let clock: HLC?
        let lastSequence: Int64?
        let dataVersion: UInt32?
    }

    private let lock = NSLock()
    private var copy: (clock: HLC, sequence: Int64, dataVersion: UInt32)?
    private var storeReadCount = 0

    /// How many saves read the clock from the store rather than from the copy.
    var storeReads: Int { lock.withLock { storeReadCount } }

    /// In a save's transaction, once it began: the device's clock and the outbox's last number
    /// as the save before left them, when nothing committed since; else the clock as the store
    /// holds it. Returns the file's data version too, for ``remember(_:sequence:dataVersion:)``.
    func current(_ db: Database) throws -> Start {
        let version = Self.dataVersion(db)
        let remembered: (clock: HLC, sequence: Int64)? = lock.withLock {
            guard let copy, let version, copy.dataVersion &+ 1 == version else { return nil }
            return (copy.clock, copy.sequence)
        }
        if let remembered {
            return Start(clock: remembered.clock, lastSequence: remembered.sequence, dataVersion: version)
        }
        lock.withLock { storeReadCount += 1 }
        return Start(clock: try PropertyClocks.current(db), lastSequence: nil, dataVersion: version)
    }

    /// After a save committed: the clock its outbox row carries, that row's number, and the
    /// data version ``current(_:)`` gave it.
    func remember(_ clock: HLC?, sequence: Int64, dataVersion: UInt32?) {
        lock.withLock {
            if let clock, let dataVersion { copy = (clock, sequence, dataVersion) } else { copy = nil }
        }
    }

    /// The main database file's data version as `db`'s connection sees it, or `nil`.
    private static func dataVersion(_ db: Database) -> UInt32? {
        var version: UInt32 = 0
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else {
            return nil
        }
        return version
    }
}
