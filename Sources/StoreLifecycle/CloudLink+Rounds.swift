import Foundation
import Ubiquity

/// What `cloud sync` did: export and import rounds until nothing more arrived, counted with
/// what opening the device already did.
public struct SyncRounds: Sendable {
    /// Logs this device wrote.
    public var exported: Int
    /// Other devices' logs applied, and the objects they changed.
    public var appliedLogs: Int
    public var changedObjects: Int
    /// Why logs still wait (a missing log holds its device's later ones back), at the last import.
    public var waiting: [String]
}

extension CloudLink {
    /// Exports and imports until an import applies nothing or `deadline` passes. The counts
    /// include what `preparation` (opening the device) already exported and imported.
    public func syncUntilQuiet(deadline: Date, after preparation: StoreCoordinator.Preparation) throws -> SyncRounds {
        var exported = preparation.exported
        var total = preparation.imported ?? ImportReport()
        var report = ImportReport()
        repeat {
            exported += try sync.exportPending()
            report = try sync.importPending()
            total.add(report)
            if report.appliedLogs == 0 { break }
        } while Date() < deadline
        return SyncRounds(
            exported: exported, appliedLogs: total.appliedLogs, changedObjects: total.changes.count,
            waiting: report.waiting)
    }
}
