import Foundation
import Logging
import TextAndFiles

/// Keeps a device in sync while it runs: imports other peers' logs as soon as they land in the
/// cloud folder (inotify, with a periodic rescan), and retries exports that failed. The device's
/// own saves are exported as they are made (see `ObjectStore.observeSaves`).
public final class LiveSync: @unchecked Sendable {
    public let sync: CloudSync
    private var watcher: FolderWatcher?
    private let logger: Logger
    /// What the line about diverging data ends with: what to do about it, in the app's words.
    private let divergenceAdvice: String?

    public init(sync: CloudSync, divergenceAdvice: String? = nil, logger: Logger = .silent) {
        self.sync = sync
        self.divergenceAdvice = divergenceAdvice
        self.logger = logger
    }

    /// Starts watching. `onImport` is called on the watcher's thread after each import that
    /// applied logs or merged a baseline, and `onProblem` with lines worth showing (gaps, rejected files, errors).
    ///
    /// - Parameter isOnline: asked before each round; offline (`cloud offline`, an unmounted
    ///   folder), the round is skipped and saves wait in the outbox.
    public func start(
        rescanInterval: TimeInterval = 2,
        isOnline: @escaping () -> Bool = { true },
        onImport: @escaping (ImportReport) -> Void,
        onProblem: @escaping (String) -> Void = { _ in }
    ) throws {
        // Inside a reachable cloud folder the logs folder may be made now, so that inotify has
        // something to watch; an unreachable one is looked for again at every rescan.
        try? sync.layout.makeFolder(sync.layout.logsFolder)
        // Problems are told once, when they appear, not at every rescan.
        var known: Set<String> = []
        let watcher = FolderWatcher(root: sync.layout.logsFolder, rescanInterval: rescanInterval) {
            [weak self, sync, logger] events in
            guard isOnline(), sync.layout.isReachable else { return }
            do {
                // The logs the watcher named, alone, when they are all that changed; a full
                // round at least once per rescan interval all the same, and when a log a peer
                // waited for arrives.
                let now = Date()
                if let files = events.files, let self, now.timeIntervalSince(self.lastFullRound) < rescanInterval,
                    self.awaitedLogs.isDisjoint(with: files), let report = (try? sync.importArrivedLogs(files)) ?? nil
                {
                    // A refusal is told, and its peer's later logs looked for, by a full round.
                    let needsFullRound = !report.rejected.isEmpty || !report.waiting.isEmpty
                    if !needsFullRound { self.count { $0.namedLogs += 1 } }
                    if report.changedSomething {
                        self.arrivedSinceFullRound = true
                        onImport(report)
                    }
                    if !needsFullRound { return }
                }
                self?.lastFullRound = now
                self?.count { $0.full += 1 }
                if try sync.pendingExports() > 0 { try sync.exportPending() }
                let report = try sync.importPending()
                let refusedLogs = report.refused.filter { $0.kind == .log }
                self?.awaitedLogs = report.awaitedLogs.union(
                    refusedLogs.map { "\($0.peer)/\(CloudLayout.logName($0.seq))" })
                let problems = report.waiting + report.rejected
                for line in problems where !known.contains(line) { onProblem(line) }
                known = Set(problems)
                if report.changedSomething { onImport(report) }
                // Housekeeping reads or writes the whole store (a baseline: a second or more on
                // a large one): done in a quiet round, so that arriving changes never wait on it.
                let arrivedMeanwhile = self?.arrivedSinceFullRound ?? false
                self?.arrivedSinceFullRound = false
                let busy = report.changedSomething || arrivedMeanwhile
                guard self?.isTimeForHousekeeping(busy: busy) ?? false else { return }
                try sync.coalesceHistoryIfDue()
                // Writing the baseline exports first, which may import (a peer that never
                // exported learns its own history first): what that applied is told too.
                if let meanwhile = sync.takeImportedMeanwhile(), meanwhile.changedSomething { onImport(meanwhile) }
                if let divergence = self?.verifyIfDue() { onProblem(divergence) }
            } catch {
                logger.warning("live sync: \(error)")
                onProblem("sync failed: \(error)")
            }
        }
        try watcher.start()
        self.watcher = watcher
    }

    /// When the watcher's thread last made a full round (surveyed the cloud folder, retried
    /// exports, looked for housekeeping): at least once per rescan interval, whatever the
    /// watcher names.
    private var lastFullRound = Date.distantPast
    /// Whether rounds that imported only the logs the watcher named applied anything since the
    /// last full round: that round then counts as busy for housekeeping, as if it had.
    private var arrivedSinceFullRound = false
    /// The logs the last full round found missing or refused, each holding its peer back: the
    /// round that sees one arrive (a whole copy over a refused one) is a full one, since the
    /// peer's later logs, there already, are named by no event and would otherwise wait for the
    /// rescan. A log that never comes costs nothing: only its name turns a round into a survey.
    private var awaitedLogs: Set<String> = []

    /// The rounds made so far, by kind (read from any thread; counted on the watcher's).
    public var rounds: LiveSyncRounds { roundsLock.withLock { countedRounds } }
    private let roundsLock = NSLock()
    private var countedRounds = LiveSyncRounds()

    private func count(_ round: (inout LiveSyncRounds) -> Void) {
        roundsLock.withLock { round(&countedRounds) }
    }

    /// Since when changes have kept arriving, and when they last did (on the watcher's thread).
    private var busySince: Date?
    private var lastBusy: Date?
    /// How long a stream of arriving changes may put housekeeping off.
    static let housekeepingDelay: TimeInterval = 30
    /// How long nothing must arrive before a round counts as quiet: in a stream of saves, a
    /// round woken by a temporary file finds nothing new, and is not quiet for that.
    static let quietPeriod: TimeInterval = 1

    /// Whether this round may write a baseline or compare digests: nothing has arrived for
    /// ``quietPeriod`` (the rescan after a burst is such a round), or changes have kept arriving
    /// for ``housekeepingDelay`` without a quiet round.
    func isTimeForHousekeeping(busy: Bool, now: Date = Date()) -> Bool {
        if busy {
            lastBusy = now
            let since = busySince ?? now
            guard now.timeIntervalSince(since) >= Self.housekeepingDelay else {
                busySince = since
                return false
            }
            busySince = nil
            return true
        }
        if let lastBusy, now.timeIntervalSince(lastBusy) < Self.quietPeriod { return false }
        busySince = nil
        return true
    }

    /// When the digests were last compared, and what there was to compare: at most once a
    /// minute, and only when this store or another peer's digest changed (on the watcher's thread).
    private var lastVerify = Date.distantPast
    private var lastVerified = ""
    static let verifyInterval: TimeInterval = 60

    /// Publishes this device's digest and compares it with the other peers' when due (it reads
    /// the whole store); returns a line to show when they diverge.
    private func verifyIfDue() -> String? {
        guard Date().timeIntervalSince(lastVerify) >= Self.verifyInterval else { return nil }
        lastVerify = Date()
        let layout = sync.layout
        let others = layout.digestPeers().sorted().map {
            "\($0)=\(layout.digestNumbers(of: $0, extension: DigestFiles.digestExtension).first ?? 0)"
        }
        let state = "\((try? sync.store.changeToken()) ?? -1) \(others.joined(separator: ","))"
        guard state != lastVerified else { return nil }
        lastVerified = state
        do {
            let report = try sync.verify()
            guard !report.diverging.isEmpty else { return nil }
            let line =
                "data differs from \(report.diverging.map(\.device).joined(separator: ", ")) although the same logs were applied"
            return divergenceAdvice.map { "\(line): \($0)" } ?? line
        } catch {
            logger.warning("digest not compared: \(ErrorText.reason(error))")
            return nil
        }
    }

    public func stop() {
        watcher?.stop()
        watcher = nil
    }
}
