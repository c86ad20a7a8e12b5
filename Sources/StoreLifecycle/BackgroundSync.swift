import Foundation
import TextAndFiles
import Ubiquity

/// An import made in the background, with the store's change counts just before its round and
/// just after it: when no save came between them, a screen that had fetched at the first
/// reads only the changed rows while the store is still at the second.
public struct BackgroundImport: Sendable {
    public var report: ImportReport
    public var before: ChangeCounts?
    public var after: ChangeCounts?

    public init(report: ImportReport, before: ChangeCounts?, after: ChangeCounts?) {
        self.report = report
        self.before = before
        self.after = after
    }

    /// The devices whose logs it applied, sorted.
    public var devices: [String] { report.devices.sorted() }

    /// How many objects it inserted, updated and deleted.
    public var changeCounts: (total: Int, inserted: Int, updated: Int, deleted: Int) {
        let changes = report.changes
        return (changes.count, changes.inserted.count, changes.updated.count, changes.deleted.count)
    }

    /// What a screen or a log says of it: "3 changes from kitchen".
    public var summary: String { Self.summary(count: report.changes.count, devices: devices) }

    /// "3 changes from kitchen, phone" (devices in the given order), "1 change".
    public static func summary(count: Int, devices: [String]) -> String {
        let from = devices.isEmpty ? "" : " from " + devices.joined(separator: ", ")
        return "\(count) change\(count == 1 ? "" : "s")\(from)"
    }
}

/// What runs beside the app for the store it is on: live sync for a cloud store, the one-time
/// setup for a fallback store (retried every few seconds while offline), nothing for a local
/// store.
final class BackgroundSync: @unchecked Sendable {
    private let wake: @Sendable () -> Void
    private let onImport: @Sendable (BackgroundImport) -> Void
    private let onProblem: @Sendable (String) -> Void
    private let lock = NSLock()
    private var live: LiveSync?
    /// Bumped by every start and stop: a setup thread of an earlier store reports nothing.
    private var generation = 0
    private var setupFinished = false
    /// Whether the watcher found the cloud store offline at its last round (`nil`: no round
    /// yet): what a screen shows without touching the cloud folder itself.
    private var seenOffline: Bool?

    var wasOfflineAtLastRound: Bool? { lock.withLock { seenOffline } }

    /// How long the setup waits before trying again (offline, or after an error).
    static let setupRetryInterval: TimeInterval = 2

    init(wake: @escaping @Sendable () -> Void, onImport: @escaping @Sendable (BackgroundImport) -> Void,
         onProblem: @escaping @Sendable (String) -> Void) {
        self.wake = wake
        self.onImport = onImport
        self.onProblem = onProblem
    }

    /// Whether the fallback store's setup thread finished the cloud store's setup.
    var isSetupFinished: Bool { lock.withLock { setupFinished } }

    func start(for store: DeviceStore, configuration: StoreConfiguration) {
        let generation = lock.withLock {
            self.generation += 1
            setupFinished = false
            seenOffline = nil
            return self.generation
        }
        switch store.role {
        case .local:
            break
        case .cloud:
            guard let sync = store.sync else { return }
            let live = LiveSync(sync: sync, divergenceAdvice: "run grocery-dude cloud verify", logger: configuration.logger)
            let objects = store.store.objects, onImport = onImport
            // The watcher's thread asks before each round: the counts are read there, then after the import.
            nonisolated(unsafe) var before: ChangeCounts?
            do {
                try live.start(isOnline: { [self] in
                    before = try? objects.changeCounts()
                    let offline = store.isOffline
                    lock.withLock { seenOffline = offline }
                    return !offline
                }, onImport: { report in
                    onImport(BackgroundImport(report: report, before: before, after: try? objects.changeCounts()))
                }, onProblem: onProblem)
                lock.withLock { self.live = live }
            } catch {
                onProblem("cannot watch the cloud folder: \(ErrorText.reason(error))")
            }
        case .fallback:
            guard let account = store.account else { return }
            let thread = Thread { [self] in runSetup(configuration, account: account, generation: generation) }
            thread.name = "cloud setup"
            thread.start()
        }
    }

    private func runSetup(_ configuration: StoreConfiguration, account: String, generation: Int) {
        var lastProblem: String?
        while lock.withLock({ self.generation == generation }) {
            do {
                if try CloudSetup.run(configuration, account: account) {
                    let current = lock.withLock {
                        if self.generation == generation { setupFinished = true }
                        return self.generation == generation
                    }
                    if current { wake() }
                    return
                }
            } catch {
                let problem = "cloud setup failed: \(ErrorText.reason(error)); trying again"
                if problem != lastProblem { onProblem(problem) }
                lastProblem = problem
            }
            Thread.sleep(forTimeInterval: Self.setupRetryInterval)
        }
    }

    func stop() {
        let live = lock.withLock {
            generation += 1
            setupFinished = false
            defer { self.live = nil }
            return self.live
        }
        live?.stop()
    }
}
