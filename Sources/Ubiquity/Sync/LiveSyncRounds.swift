/// How many rounds a ``LiveSync`` made, by kind: those that imported only the logs the folder
/// watcher named, and those that surveyed the whole cloud folder.
///
/// Both kinds import the same logs; only the time they take differs (a survey stamps and lists
/// every peer's folder). So a change that made every round a survey would keep every test of
/// what arrives passing and silently lose the short path: these counts are what shows which
/// path the rounds took, to a test, a benchmark or a diagnostic line.
public struct LiveSyncRounds: Sendable, Equatable {
    /// Rounds that imported the logs the watcher named and nothing else (a round woken by a
    /// file that is not a log, or by a log already applied, counts too: it surveyed nothing).
    public var namedLogs = 0
    /// Rounds that surveyed the cloud folder: the first, one at least per rescan interval, a
    /// wake-up whose files the watcher could not name, named logs that could not be taken alone
    /// (a gap, a damaged log) or that brought a refusal, and the arrival of a log a peer waited
    /// for (its later logs, there already, are named by no event).
    public var full = 0

    public init(namedLogs: Int = 0, full: Int = 0) {
        self.namedLogs = namedLogs
        self.full = full
    }
}
