import Foundation
import GroceryModel
import Logging
import TextAndFiles
import Ubiquity

/// Which store a device runs on, and every change of it while the app runs (Core Data's
/// persistent store coordinator with an iCloud store).
///
/// Used from one thread, the app's (its UI thread, or a command's main thread): the store is
/// only ever swapped there, between a `storesWillChange` and a `storesDidChange` delivered
/// synchronously on that thread, so that the app never touches a store that is going away.
/// Work that takes long (the one-time setup, imports) runs on other threads.
///
/// Only the process that holds the device (``claimDevice``) runs on the fallback store, moves
/// it, or moves a store aside; others share the cloud store through SQLite.
public final class StoreCoordinator: @unchecked Sendable {
    /// Where the device's stores are; its store name changes when the app opens another list
    /// (``switchStore(named:)``), on the thread that runs transitions.
    public private(set) var configuration: StoreConfiguration
    /// The store the app runs on now.
    public private(set) var current: DeviceStore
    /// The settings the current store was chosen by.
    private var settings: DeviceSettings
    /// Asked after each `storesWillChange`: while it answers yes, the notice repeats (Core Data's
    /// save loop); if the app still has changes after a few rounds, the transition waits.
    public var hasUnsavedChanges: () -> Bool = { false }
    /// Whether this process may use the fallback store and move stores: it holds the device
    /// lock, or can take it now.
    let claimDevice: () -> Bool
    private let journal: TransitionJournal
    /// Told every ``StoreMessage``; guarded by `subscribersLock`, as background threads read it.
    private var subscribers: [(StoreMessage) -> Void] = []
    private let subscribersLock = NSLock()
    private var background: BackgroundSync?
    /// Keeps the device's other lists in sync while the background sync runs.
    private var follower: ListFollower?
    /// The store the coordinator runs on, for the follower's thread (guarded by `subscribersLock`).
    private var storeNameNow = ""

    /// Whether the cloud folder was out of reach when background sync last looked (every few
    /// seconds), `nil` before it has: for screens, which must not touch a folder that may hang.
    public var cloudFolderWasUnreachable: Bool? { background?.wasOfflineAtLastRound }
    /// Whether background sync last found a folder at the cloud folder's path that is not the
    /// one this device synced with (is the share mounted?), the reason it works offline.
    public var cloudFolderWasAnotherOne: Bool { background?.sawAnotherFolderAtLastRound ?? false }
    /// What the claims and presence files said when background sync last read them (every few
    /// seconds): for screens, which must not touch the cloud folder.
    public var householdNow: HouseholdView { background?.householdView ?? HouseholdView() }

    /// The app's Shop screen is open (`true`, at `shop` or none) or not: while it is, background
    /// sync keeps this device's presence fresh ("Ben is shopping at Aldi" on the other devices),
    /// and writes that it stopped when it closes or the app quits.
    public func setShoppingHere(_ shopping: Bool, at shop: String?) {
        background?.setShopping(shopping ? HouseholdFollower.Shopping(shop: shop) : nil)
    }
    private var lastEpochCheck = Date.distantPast
    /// Paces the looks at the cloud folder's epoch markers (at most one a second); a test
    /// moves it on instead of sleeping.
    private let clock: any WallClock

    /// The time on the clock the coordinator was given (the system's unless a test gave its
    /// own): the transitions it journals are stamped with it, and the screens above pace their
    /// reads and stamp what they show with it too.
    public var now: Date { clock.now() }

    /// What ``prepareForCommand()`` exported and imported: a command that syncs counts it.
    public private(set) var preparation = Preparation()

    public struct Preparation: Sendable {
        /// Logs this device wrote.
        public var exported = 0
        /// What the imports found and did, added up (`nil`: none ran).
        var imported: ImportReport?

        /// Other devices' logs applied.
        public var importedLogs: Int { imported?.appliedLogs ?? 0 }
        /// Why the one-time setup, tried before the command, did not finish (`nil`: it was not
        /// tried, or it finished).
        public var setupProblem: String?
    }

    /// Records a user's decision in the device's history (`cloud status` lists it).
    public func journal(event: String, detail: String) {
        do {
            try journal.record(event: event, detail: detail, by: configuration.process, at: clock.now())
        } catch {
            logger.warning("cannot record \(event) in the history: \(ErrorText.reason(error))")
        }
        logger.notice("\(event): \(detail)")
    }

    /// How many `storesWillChange` rounds the app gets to save before a transition waits.
    static let saveRounds = 5

    /// Opens the store the device's settings ask for. Nothing slow: a cloud store not set up
    /// yet is replaced by the fallback store ("Using local storage: 1").
    public init(
        configuration: StoreConfiguration, claimDevice: @escaping () -> Bool,
        clock: any WallClock = SystemWallClock()
    ) throws {
        self.configuration = configuration
        self.claimDevice = claimDevice
        self.clock = clock
        self.journal = TransitionJournal(sandbox: configuration.sandbox)
        settings = try DeviceSettings.load(from: configuration.sandbox)
        current = try Self.open(StoreChoice(settings), configuration, claimDevice: claimDevice)
        let usingLocal = current.usingLocalStorage ? 1 : 0
        configuration.logger.debug("opened the \(current.description); Using local storage: \(usingLocal)")
    }

    var logger: Logger { configuration.logger }

    /// Calls `subscriber` with every ``StoreMessage``: the transitions synchronously on the
    /// thread that runs them (the app's), the imports and problems on the background sync's
    /// threads, a merge's progress on the merge's thread (see ``StoreMessage``). A subscriber
    /// that touches the app's state applies the transitions and posts the others to its UI
    /// thread: it is called from several threads, and must be safe for the messages that
    /// arrive off its own. Subscribe before starting anything.
    public func subscribe(_ subscriber: @escaping (StoreMessage) -> Void) {
        subscribersLock.withLock { subscribers.append(subscriber) }
    }

    /// Tells every subscriber, on the calling thread.
    func tell(_ message: StoreMessage) {
        for subscriber in subscribersLock.withLock({ subscribers }) { subscriber(message) }
    }

    /// The transitions this device went through, most recent first.
    public var transitions: [TransitionJournal.Entry] { journal.entries() }

    // MARK: - Opening

    static func open(_ choice: StoreChoice, _ configuration: StoreConfiguration, claimDevice: () -> Bool) throws
        -> DeviceStore
    {
        guard case .cloud(let account) = choice else { return try DeviceStore.openLocal(configuration) }
        if !StoreFiles.exists(configuration.fallbackStoreURL(account: account)),
            StoreFiles.exists(configuration.cloudStoreURL(account: account))
        {
            let cloud = try DeviceStore.openCloud(configuration, account: account)
            if try CloudSetup.isComplete(cloud.store) { return cloud }
            try cloud.close()
        }
        // Not set up yet, or set up with the fallback's records still to move.
        if claimDevice() { return try DeviceStore.openFallback(configuration, account: account) }
        // The app that holds the device runs on the fallback and will move it; a command saves
        // straight into the cloud store, whose saves wait in its outbox until it is set up.
        return try DeviceStore.openCloud(configuration, account: account)
    }

    // MARK: - For one-shot commands

    /// Brings the device up to date before a command: finishes the one-time setup (when online;
    /// a command can wait for it), notices a start over, then imports and exports.
    public func prepareForCommand() throws {
        try checkContentRemoved(force: true)
        if current.role == .fallback, let account = current.account {
            do {
                if try CloudSetup.run(configuration, account: account, onImport: { preparation.imported = $0 }) {
                    _ = try finishSetup()
                } else if let problem = configuration.folderProblem(
                    (try? DeviceSettings.load(from: configuration.sandbox)) ?? DeviceSettings(),
                    account: account), problem.isAnotherFolder
                {
                    configuration.tellOnce(Notice(.note, "changes are kept in the fallback store: \(problem.reason)"))
                }
            } catch {
                // The command goes on in the fallback store, as while offline (the running app's
                // background setup does the same): the next command tries the setup again.
                preparation.setupProblem = ErrorText.reason(error)
                let text =
                    "the cloud store is not set up yet: \(ErrorText.reason(error)); changes are kept in the fallback store until it is"
                logger.warning("\(text)")
                configuration.tell(Notice(.warning, text))
            }
        }
        if current.sync != nil {
            try finishInterruptedStartOver()
            preparation.exported += current.exportPending()  // saves an earlier export could not write
            if let report = current.importReport() {
                preparation.imported = (preparation.imported ?? ImportReport())
                preparation.imported?.add(report)
            }
            do {
                try resumeSeed()  // a merge a crash or going offline interrupted
            } catch {
                // The command goes on; the merge is tried again by the next one.
                logger.warning("merge with the cloud not finished: \(ErrorText.reason(error))")
                configuration.tell(Notice(.warning, "merge with the cloud not finished: \(ErrorText.reason(error))"))
            }
        }
        carryMergedLists()
    }

    // MARK: - For the running app

    /// Keeps the device in sync while the app runs: imports as logs arrive, retries exports,
    /// and runs the one-time setup in the background. `wake` is called (on another thread)
    /// whenever ``poll()`` has something to do; each import and each problem is a message to
    /// the subscribers (``StoreMessage/imported(_:)``, ``StoreMessage/problem(_:)``), on the
    /// background's threads.
    public func startBackgroundSync(wake: @escaping @Sendable () -> Void) {
        do {
            try finishInterruptedStartOver()
        } catch {
            tell(.problem("cannot finish an interrupted start over: \(ErrorText.reason(error))"))
        }
        background = BackgroundSync(wake: wake, tell: { [weak self] message in self?.tell(message) })
        background?.start(for: current, configuration: configuration)
        // Every other list of the device, lazily (``ListFollower``).
        subscribersLock.withLock { storeNameNow = configuration.storeName }
        let follower = ListFollower(
            configuration: configuration, claimDevice: claimDevice,
            skipping: { [weak self] in
                self.map { coordinator in coordinator.subscribersLock.withLock { coordinator.storeNameNow } } ?? ""
            },
            onVisit: { [weak self] visit in self?.tell(.otherListSynced(visit)) },
            onGone: { [weak self] list, survivor in self?.tell(.listGone(list, survivor: survivor)) })
        self.follower = follower
        follower.start()
    }

    public func stopBackgroundSync() {
        follower?.stop()
        follower = nil
        background?.stop()
        background = nil
    }

    /// Performs what is due, on the app's thread: an account signed in or out, cloud sync
    /// turned on or off (by another terminal), the one-time setup finished, a peer started
    /// over. Cheap when nothing changed: reads the settings file, and at most once a second
    /// the cloud folder's epoch markers.
    ///
    /// - Returns: whether the store changed.
    @discardableResult
    public func poll() throws -> Bool {
        var changed = false
        let latest = try DeviceSettings.load(from: configuration.sandbox)
        if StoreChoice(latest) != StoreChoice(settings) {
            changed = try switchStore(to: latest) || changed
        } else {
            settings = latest  // offline, a seed: nothing that changes the store
        }
        if current.role == .fallback, background?.isSetupFinished == true {
            changed = try finishSetup() || changed
        }
        changed = try checkContentRemoved(force: false) || changed
        return changed
    }

    // MARK: - Transitions

    /// Saves new device settings. When they move the device to another store, the transition
    /// is recorded here, by the command that caused it; an app running on the device performs
    /// it when it notices (``poll()``).
    ///
    /// - Parameter date: when, for the journal (an app gives its coordinator's ``now``).
    /// - Returns: the transition, if any.
    @discardableResult
    public static func saveSettings(_ new: DeviceSettings, _ configuration: StoreConfiguration, at date: Date = Date())
        throws -> StoreTransition?
    {
        let old = try DeviceSettings.load(from: configuration.sandbox)
        try new.save(to: configuration.sandbox)
        guard let kind = StoreTransition.between(old, new) else { return nil }
        let change = StoreChange(
            transition: kind, removed: [configuration.describe(StoreChoice(old))],
            added: [configuration.describe(StoreChoice(new))])
        let detail =
            switch kind {
            case .accountAdded: "signed in to account \(new.account ?? "?")"
            case .accountRemoved: "signed out of account \(old.account ?? "?")"
            case .accountChanged: "account \(old.account ?? "?") changed to \(new.account ?? "?")"
            case .cloudEnabled: "cloud sync turned on"
            default: "settings changed"
            }
        configuration.logger.notice("\(kind.rawValue): \(detail)")
        try TransitionJournal(sandbox: configuration.sandbox).record(
            change, detail: detail, by: configuration.process, at: date)
        return kind
    }

    /// Runs `body` between the will-change and did-change notices, unless the app still has
    /// changes to save after the save loop: then nothing happens and this returns `false`.
    private func transition(_ change: StoreChange, _ body: () throws -> DeviceStore) throws -> Bool {
        var rounds = 0
        repeat {
            tell(.storesWillChange(change))
            rounds += 1
        } while hasUnsavedChanges() && rounds < Self.saveRounds
        if hasUnsavedChanges() {
            logger.warning("\(change.transition.rawValue) postponed: the app still has unsaved changes")
            tell(.storesChangePostponed(change))
            return false
        }
        background?.stop()
        let next = try body()
        if next.description.path != current.description.path { try? current.close() }
        current = next
        background?.start(for: current, configuration: configuration)
        logger.notice(
            "transition \(change.transition.rawValue): now on the \(current.description); Using local storage: \(current.usingLocalStorage ? 1 : 0)"
        )
        tell(.storesDidChange(change))
        return true
    }

    /// Moves the app to the store named `storeName` (another named list), with the same settings:
    /// its local store, or the account's cloud store of that name — set up like any other (the
    /// fallback store stands in until it is). A transition like an account switch: will-change,
    /// the old store closed, did-change.
    ///
    /// - Returns: whether the app moved (`false`: already there, or unsaved changes made it wait).
    @discardableResult
    public func switchStore(named storeName: String) throws -> Bool {
        let storeName = try CloudLayout.checkedStoreName(storeName)
        guard storeName != configuration.storeName else { return false }
        // A visit of that list by the follower under way finishes first; the follower then
        // leaves it to this coordinator.
        follower?.visiting.lock()
        defer { follower?.visiting.unlock() }
        subscribersLock.withLock { storeNameNow = storeName }
        defer { subscribersLock.withLock { storeNameNow = configuration.storeName } }
        var next = configuration
        next.storeName = storeName
        let choice = StoreChoice(settings)
        // Opened before the old store goes, so that a list that cannot be opened changes nothing.
        let opened = try Self.open(choice, next, claimDevice: claimDevice)
        let change = StoreChange(
            transition: .storeSwitched, removed: [current.description], added: [opened.description])
        let done = try transition(change) {
            configuration = next
            return opened
        }
        if done {
            journal(event: "storeSwitched", detail: "opened the store \(storeName)")
        } else {
            try? opened.store.objects.close()
        }
        return done
    }

    /// Settings changed: another account, signed out, cloud sync turned on or off.
    private func switchStore(to latest: DeviceSettings) throws -> Bool {
        guard let kind = StoreTransition.between(settings, latest) else {
            settings = latest
            return false
        }
        let choice = StoreChoice(latest)
        let added = configuration.describe(choice)
        let change = StoreChange(transition: kind, removed: [current.description], added: [added])
        let done = try transition(change) { try Self.open(choice, configuration, claimDevice: claimDevice) }
        if done { settings = latest }
        return done
    }

    /// The one-time setup is done: the fallback store's records move into the cloud store
    /// (`initialImportCompleted`), which the app runs on from now ("Using local storage: 0").
    @discardableResult
    public func finishSetup() throws -> Bool {
        guard current.role == .fallback, let account = current.account, claimDevice(),
            CloudSetup.isComplete(configuration, account: account)
        else { return false }
        let fallback = current
        var moved = 0
        let change = StoreChange(
            transition: .initialImportCompleted, removed: [fallback.description],
            added: [configuration.describe(.cloud(account: account))])
        let done = try transition(change) {
            let next = try DeviceStore.openCloud(configuration, account: account)
            moved = try next.store.objects.copyObjects(from: fallback.store.objects, author: "fallback store")
            // The records are committed in the cloud store (and its outbox): the fallback can go.
            try fallback.close()
            try StoreFiles.remove(URL(fileURLWithPath: fallback.description.path))
            return next
        }
        if done {
            try record(change, detail: "\(moved) record(s) moved from the fallback store; Using local storage: 0")
        }
        return done
    }

    /// A peer started over (its epoch marker is newer than the store's epoch): the store moves
    /// aside, kept on the device, and the app continues on the new epoch's store
    /// (`contentRemoved`). Only the process that holds the device does it.
    @discardableResult
    func checkContentRemoved(force: Bool) throws -> Bool {
        guard let sync = current.sync, let account = current.account else { return false }
        let now = clock.now()
        if !force, now.timeIntervalSince(lastEpochCheck) < 1 { return false }
        lastEpochCheck = now
        guard !current.isOffline, sync.layout.isSuperseded, claimDevice() else { return false }
        let epoch = sync.layout.currentEpoch()
        var kept: URL?
        let change = StoreChange(
            transition: .contentRemoved, removed: [current.description],
            added: [configuration.describe(.cloud(account: account))])
        let old = current
        let done = try transition(change) {
            kept = try setAside(old, label: "epoch-\(sync.layout.epoch)")
            return try openAfterSetup(account: account)
        }
        if done {
            try record(
                change,
                detail:
                    "a peer started over (epoch \(epoch)); this device's data of epoch \(sync.layout.epoch) is kept at \(kept?.path ?? "?")"
            )
        }
        return done
    }

    /// Closes a store and moves its files into the account's kept stores.
    func setAside(_ store: DeviceStore, label: String) throws -> URL {
        try store.close()
        return try StoreFiles.setAside(
            URL(fileURLWithPath: store.description.path),
            into: configuration.keptStoresFolder(account: store.account ?? "local"), label: label)
    }

    /// The account's cloud store after setting it up now, or the fallback while offline.
    func openAfterSetup(account: String) throws -> DeviceStore {
        if try CloudSetup.run(configuration, account: account) {
            return try DeviceStore.openCloud(configuration, account: account)
        }
        return try Self.open(.cloud(account: account), configuration, claimDevice: claimDevice)
    }

    /// Writes a transition to the journal and the log file.
    func record(_ change: StoreChange, detail: String) throws {
        logger.notice("\(change.transition.rawValue): \(detail)")
        try journal.record(change, detail: detail, by: configuration.process, at: clock.now())
    }

    /// Swaps the store for one the caller opened (rebuild, start over, disable), announcing it.
    func replaceStore(_ change: StoreChange, detail: @escaping () -> String, _ body: () throws -> DeviceStore) throws
        -> Bool
    {
        let done = try transition(change, body)
        if done { try record(change, detail: detail()) }
        settings = (try? DeviceSettings.load(from: configuration.sandbox)) ?? settings
        return done
    }
}
