import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

/// What runs beside the app for the store it is on: live sync for a cloud store, the one-time
/// setup for a fallback store (retried every few seconds while offline), nothing for a local
/// store.
final class BackgroundSync: @unchecked Sendable {
    private let wake: @Sendable () -> Void
    /// Told the imports and the problems, on the watcher's or the setup's thread.
    private let tell: @Sendable (StoreMessage) -> Void
    private let lock = NSLock()
    private var live: LiveSync?
    /// Bumped by every start and stop: a setup thread of an earlier store reports nothing.
    private var generation = 0
    private var setupFinished = false
    /// Whether the watcher found the cloud store offline at its last round (`nil`: no round
    /// yet): what a screen shows without touching the cloud folder itself.
    private var seenOffline: Bool?
    /// Whether, at that round, a folder was there that is not the account's cloud folder this
    /// device synced with (an empty mount point, another share): offline for that reason.
    private var seenOtherFolder = false

    /// Claims and presence, read and written on a thread of their own (cloud stores only).
    private var household: HouseholdFollower?
    /// Whether the app says this device is shopping, and where: kept across stores.
    private var shopping: HouseholdFollower.Shopping?

    var wasOfflineAtLastRound: Bool? { lock.withLock { seenOffline } }

    /// What the claims and presence files said at the follower's last read.
    var householdView: HouseholdView { lock.withLock { household }?.latest ?? HouseholdView() }

    /// The app's Shop screen opened (`shop`: the shop it shows, or none) or closed (`nil`).
    func setShopping(_ shopping: HouseholdFollower.Shopping?) {
        let follower = lock.withLock {
            self.shopping = shopping
            return household
        }
        follower?.setShopping(shopping)
    }
    var sawAnotherFolderAtLastRound: Bool { lock.withLock { seenOtherFolder } }

    /// How long the setup waits before trying again (offline, or after an error).
    static let setupRetryInterval: TimeInterval = 2

    init(wake: @escaping @Sendable () -> Void, tell: @escaping @Sendable (StoreMessage) -> Void) {
        self.wake = wake
        self.tell = tell
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
            let live = LiveSync(
                sync: sync, divergenceAdvice: configuration.advice.divergence, logger: configuration.logger)
            let groceries = store.store
            let tell = tell
            // The watcher's thread asks before each round: the counts are read there, then after the import.
            nonisolated(unsafe) var before: GroceryStore.ChangeCounts?
            do {
                try live.start(
                    isOnline: { [self] in
                        before = try? groceries.changeCounts()
                        let settings = (try? DeviceSettings.load(from: configuration.sandbox)) ?? DeviceSettings()
                        let problem = settings.offline ? nil : configuration.folderProblem(settings)
                        let offline = settings.offline || problem != nil
                        lock.withLock { (seenOffline, seenOtherFolder) = (offline, problem?.isAnotherFolder ?? false) }
                        return !offline
                    },
                    onImport: { report in
                        tell(.imported(BackgroundImport(report, before: before, after: try? groceries.changeCounts())))
                    }, onProblem: { problem in tell(.problem(problem)) })
                lock.withLock { self.live = live }
            } catch {
                tell(.problem("cannot watch the cloud folder: \(ErrorText.reason(error))"))
            }
            if let household = store.household {
                let follower = lock.withLock {
                    let follower = HouseholdFollower(household: household, shopping: shopping, wake: wake)
                    self.household = follower
                    return follower
                }
                follower.start()
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
                if problem != lastProblem { tell(.problem(problem)) }
                lastProblem = problem
            }
            Thread.sleep(forTimeInterval: Self.setupRetryInterval)
        }
    }

    func stop() {
        let (live, household) = lock.withLock {
            generation += 1
            setupFinished = false
            defer { (self.live, self.household) = (nil, nil) }
            return (self.live, self.household)
        }
        live?.stop()
        household?.stop()
    }
}
