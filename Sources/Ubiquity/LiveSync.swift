import Foundation
import Logging

/// Keeps a device in sync while it runs: imports other peers' logs as soon as they land in the
/// cloud folder (inotify, with a periodic rescan), and retries exports that failed. The device's
/// own saves are exported as they are made (see `ObjectStore.observeSaves`).
public final class LiveSync: @unchecked Sendable {
    public let sync: CloudSync
    private var watcher: FolderWatcher?
    private let logger: Logger

    public init(sync: CloudSync, logger: Logger = .silent) {
        self.sync = sync
        self.logger = logger
    }

    /// Starts watching. `onImport` is called on the watcher's thread after each import that
    /// applied logs, and `onProblem` with lines worth showing (gaps, rejected files, errors).
    ///
    /// - Parameter isOnline: asked before each round; offline (`cloud offline`, an unmounted
    ///   folder), the round is skipped and saves wait in the outbox.
    public func start(rescanInterval: TimeInterval = 2,
                      isOnline: @escaping () -> Bool = { true },
                      onImport: @escaping (ImportReport) -> Void,
                      onProblem: @escaping (String) -> Void = { _ in }) throws {
        // Inside a reachable cloud folder the logs folder may be made now, so that inotify has
        // something to watch; an unreachable one is looked for again at every rescan.
        try? sync.layout.makeFolder(sync.layout.logsFolder)
        // Problems are told once, when they appear, not at every rescan.
        var known: Set<String> = []
        let watcher = FolderWatcher(root: sync.layout.logsFolder, rescanInterval: rescanInterval) { [sync, logger] in
            guard isOnline(), sync.layout.isReachable else { return }
            do {
                if try sync.pendingExports() > 0 { try sync.exportPending() }
                let report = try sync.importPending()
                let problems = report.waiting + report.rejected
                for line in problems where !known.contains(line) { onProblem(line) }
                known = Set(problems)
                if report.appliedLogs > 0 { onImport(report) }
                try sync.coalesceHistoryIfDue()
            } catch {
                logger.warning("live sync: \(error)")
                onProblem("sync failed: \(error)")
            }
        }
        try watcher.start()
        self.watcher = watcher
    }

    public func stop() {
        watcher?.stop()
        watcher = nil
    }
}
