import Foundation
import GroceryModel
import StoreLifecycle
import Ubiquity

/// The state of the Cloud screen: the "Enable cloud sync" setting, account and device, "Using
/// local storage", peer ID, model version, last sync, pending logs, recent transitions and
/// imports; and its actions: sync now, offline/online, sign in/out/switch account, enable (with
/// the "Merge with Cloud?" prompt when this device has local data), rebuild, disable (keeping
/// the data), start over (typed confirmation: it deletes the cloud content of every device).
///
/// The actions that change the store save the settings and have the coordinator perform the
/// transition at once, on the UI thread; the screens hear of it through the coordinator's
/// notices like of any other transition. A merge runs in the background and reports through
/// the mailbox.
public final class CloudViewModel {
    /// An import, as the screen lists it.
    public struct ImportNote: Equatable, Sendable {
        public var at: Date
        public var changes: Int
        public var devices: [String]
    }

    public private(set) var status: CloudStatus?
    public private(set) var recentImports: [ImportNote] = []
    public private(set) var dialog: Dialog?
    /// The last message of this screen, with when it was made.
    public private(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public private(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// A merge with the cloud runs in the background.
    public private(set) var isMerging = false
    /// While this screen changes the settings or the store itself: the transitions that follow
    /// are the user's doing here, not a preference changed elsewhere.
    public private(set) var isChangingSettings = false
    /// Called while long work runs on the UI thread, after each change of ``dialog``'s
    /// progress, so the screen can be drawn (nothing else runs on that thread meanwhile).
    public var redraw: () -> Void = {}

    let coordinator: StoreCoordinator
    private let mailbox: Mailbox<AppEvent>
    private var configuration: StoreConfiguration { coordinator.configuration }
    private var pending: PendingAction?
    private var lastRefresh = Date.distantPast

    private enum PendingAction: Equatable { case merge, rebuild, disable, startOver, release(RefusedFile) }

    public init(coordinator: StoreCoordinator, mailbox: Mailbox<AppEvent>) {
        self.coordinator = coordinator
        self.mailbox = mailbox
    }

    // MARK: - Status

    /// Reads the status again (at most once a second unless `force`). Returns whether it changed.
    @discardableResult
    public func refresh(force: Bool = false) -> Bool {
        guard force || Date().timeIntervalSince(lastRefresh) >= 1 else { return false }
        lastRefresh = Date()
        do {
            let latest = try coordinator.status()
            defer { status = latest }
            return latest != status
        } catch {
            message = "Cannot read the cloud status: \(ErrorText.reason(error))"
            return true
        }
    }

    /// Remembers an import for the screen's list (the last ten).
    public func noteImport(changes: Int, devices: [String], at date: Date = Date()) {
        recentImports.insert(ImportNote(at: date, changes: changes, devices: devices), at: 0)
        if recentImports.count > 10 { recentImports.removeLast() }
    }

    // MARK: - Sync now, offline

    /// Exports what waits and imports what arrived, on another thread; the answer comes back
    /// through the mailbox (``AppEvent/synced(_:)``).
    public func syncNow() {
        let device = coordinator.current
        guard let sync = device.sync else {
            message = "Cloud sync is off on this device"
            return
        }
        guard !device.isOffline else {
            message = CloudLayout.unreachableReason(sync.layout.cloud).map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "Offline: go online first"
            return
        }
        message = "Syncing…"
        let mailbox = mailbox
        Thread.detachNewThread {
            do {
                let exported = try sync.exportPending()
                let report = try sync.importPending()
                mailbox.post(.synced("Synced: exported \(exported) log\(exported == 1 ? "" : "s"), imported \(report.appliedLogs)"))
            } catch {
                mailbox.post(.synced("Sync failed: \(ErrorText.reason(error))"))
            }
        }
    }

    /// Airplane mode on or off; the background sync notices at its next look.
    public func setOffline(_ offline: Bool) {
        changeSettings { $0.offline = offline }
        message = offline ? "Offline: changes are kept on this device" : "Online"
    }

    // MARK: - Account

    /// Signs in to `account` (or switches to it): the store changes to the account's.
    ///
    /// - Throws: why the account name is refused: the caller keeps what was typed.
    public func signIn(_ typed: String) throws {
        let account = try CloudLayout.checkedAccountName(typed)
        changeSettings { $0.account = account }
    }

    public func signOut() {
        changeSettings { $0.account = nil }
    }

    // MARK: - Enable, disable

    /// `c`: turns cloud sync on when the device is on its local store, off otherwise.
    public func toggleSync() {
        if coordinator.current.role == .local { requestEnable() } else { requestDisable() }
    }

    /// Turns cloud sync on. With data in the local store, asks "Merge with Cloud?" first.
    public func requestEnable() {
        guard let settings = loadSettings(), !settings.cloudEnabled else { return }
        guard settings.account != nil else {
            message = "Sign in to an account first"
            return
        }
        if localStoreHasData() {
            askToMerge()
        } else {
            configuration.createCloudFolderIfAllowed()
            changeSettings { $0.cloudEnabled = true }
        }
    }

    /// The merge prompt for a cloud store that loaded while the local store has data (cloud
    /// sync turned on by another terminal). Nothing happens if there is no local data.
    public func offerMerge() {
        guard dialog == nil, coordinator.current.role != .local, localStoreHasData() else { return }
        askToMerge()
    }

    private func askToMerge() {
        pending = .merge
        dialog = .choice(title: CloudMessages.mergeQuestion, message: CloudMessages.mergeExplanation,
                         decline: "Don't Merge", accept: "Merge")
    }

    /// Whether the dialog shows over every screen: a merge's question and long work's progress
    /// concern the whole app; the other dialogs belong to the Cloud screen.
    public var isDialogAppWide: Bool {
        if case .progress? = dialog { return true }
        if case .merge? = pending { return true }
        return false
    }

    public func requestDisable() {
        guard coordinator.current.role != .local else {
            message = "Cloud sync is already off"
            return
        }
        pending = .disable
        let message = localStoreHasData()
            ? "This device goes back to its own local data, which was not merged into the cloud. The account's data stays in the cloud; turning sync on again shows it, and offers to merge."
            : "All the data moves into this device's local store; the cloud keeps its copy."
        dialog = .confirm(title: "Turn Off Cloud Sync?", message: message, action: "Turn Off")
    }

    // MARK: - Rebuild, start over

    public func requestRebuild() {
        guard coordinator.current.role != .local else {
            message = "Cloud sync is off on this device"
            return
        }
        pending = .rebuild
        dialog = .confirm(title: "Rebuild from the Cloud?",
                          message: "This device's store is rebuilt from the cloud folder; the old one is kept aside.",
                          action: "Rebuild")
    }

    public func requestStartOver() {
        guard let account = coordinator.current.account else {
            message = "Cloud sync is off on this device"
            return
        }
        pending = .startOver
        dialog = .typedConfirmation(
            title: "Start Over?",
            message: "This deletes \(configuration.storeName) in account \(account) from the cloud, for every device. Each device keeps its data aside, but it no longer syncs. Type \"\(CloudMessages.startOverPhrase)\" to go on.",
            phrase: CloudMessages.startOverPhrase, action: "Start Over")
    }

    // MARK: - Refused files

    /// Asks before skipping the first refused log that holds its device back, saying what is
    /// lost: that log's changes, on this device.
    public func requestRelease() {
        guard let sync = coordinator.current.sync,
              let refusal = (try? sync.refusedFiles())?.first(where: { $0.kind == .log }) else {
            message = "No refused log holds a device back"
            return
        }
        pending = .release(refusal)
        dialog = .confirm(title: "Skip the Refused Log?",
                          message: "\(refusal.summary). Skipping it loses on this device what it holds: \(sync.contentSummary(of: refusal)). That device's later logs are then applied.",
                          action: "Skip Log")
    }

    private func release(_ refusal: RefusedFile) {
        guard let sync = coordinator.current.sync else { return }
        do {
            try sync.release(peer: refusal.peer, seq: refusal.seq)
            coordinator.journal(event: "peerReleased", detail: "skipped \(refusal.summary)")
            message = "Skipped log \(refusal.seq) of \(refusal.device ?? refusal.peer); its later logs arrive with the next sync"
            syncNow()
        } catch {
            message = "Not skipped: \(ErrorText.reason(error))"
        }
        refresh(force: true)
    }

    // MARK: - Answers

    /// Closes the dialog without acting (Esc, `q`): nothing changes. "Merge with Cloud?" asked
    /// when turning sync on leaves sync off; asked because another terminal turned it on, it
    /// leaves the local data where it is, to be merged later.
    public func cancelDialog() {
        guard let dialog else { return }
        if case .progress = dialog { return }  // long work cannot be cancelled halfway
        let action = pending
        self.dialog = nil
        pending = nil
        if case .typedConfirmation = dialog { message = "Not confirmed; nothing was deleted" }
        if case .merge? = action {
            message = coordinator.current.role == .local
                ? "Cloud sync stays off; nothing changed"
                : "Not merged: your local data stays on this device (turn cloud sync off and on again to be asked again)"
        }
    }

    /// The answer to a confirm or choice dialog (`true`: its action), or OK to a message.
    public func answerDialog(_ accepted: Bool) {
        guard let dialog else { return }
        if case .progress = dialog { return }  // long work has no answer
        let action = pending
        self.dialog = nil
        pending = nil
        switch (dialog, action) {
        case (.choice, .merge?):
            enable(merge: accepted)
        case (.confirm, .rebuild?) where accepted:
            perform("Rebuilding from the cloud") { [coordinator] _ in
                let kept = try coordinator.rebuild()
                return "Rebuilt from the cloud; the old store is kept at \(kept?.lastPathComponent ?? "?")"
            }
        case (.confirm, .release(let refusal)?) where accepted:
            release(refusal)
        case (.confirm, .disable?) where accepted:
            perform("Turning off cloud sync") { [coordinator] _ in
                try coordinator.disable().summary
            }
        default:
            break
        }
    }

    /// The answer to the typed confirmation: the text typed. Anything but the phrase cancels.
    public func answerTyped(_ text: String) {
        guard case .typedConfirmation(_, _, let phrase, _) = dialog, case .startOver? = pending else { return }
        dialog = nil
        pending = nil
        guard text.trimmingCharacters(in: .whitespaces).lowercased() == phrase else {
            message = "Not confirmed; nothing was deleted"
            return
        }
        perform("Starting over") { [coordinator] progress in
            let result = try coordinator.startOver(progress: progress)
            return "Started over: epoch \(result.epoch), \(result.deletedFiles) file\(result.deletedFiles == 1 ? "" : "s") deleted"
        }
    }

    /// The dialog went away on its own (a store transition).
    public func dismissDialog() {
        dialog = nil
        pending = nil
    }

    // MARK: - Merging

    private func enable(merge: Bool) {
        if merge {
            do {
                try coordinator.rememberSeed(from: configuration.localStoreURL)
            } catch {
                message = "Cannot merge: \(ErrorText.reason(error))"
                return
            }
        }
        configuration.createCloudFolderIfAllowed()
        changeSettings { $0.cloudEnabled = true }
        if merge { resumeMerge() }
    }

    /// Goes on with a merge the settings remember, in the background, once the device runs on
    /// the cloud store (on the fallback store it waits for the one-time setup).
    public func resumeMerge() {
        guard !isMerging, coordinator.pendingSeedSource != nil else { return }
        guard coordinator.current.role == .cloud else {
            message = "Merging with the cloud once the cloud store is set up"
            return
        }
        isMerging = true
        dialog = .progress(title: "Merging with the Cloud", done: 0, total: 0)
        let mailbox = mailbox
        coordinator.resumeSeedInBackground(
            progress: { done, total in mailbox.post(.seedProgress(done: done, total: total)) },
            finished: { result in
                switch result {
                case .success(let seed):
                    mailbox.post(.seedEnded(finished: seed.finished, message: seed.waiting.map { "Merging with the cloud: \($0)" }
                        ?? "Merged with the cloud: \(seed.objectsText)"))
                case .failure(let error):
                    mailbox.post(.seedEnded(finished: false, message: "Merge with the cloud not finished: \(ErrorText.reason(error))"))
                }
            })
    }

    /// Applies what background work reported, on the UI thread.
    public func handle(_ event: AppEvent) {
        switch event {
        case .seedProgress(let done, let total):
            if isMerging { dialog = .progress(title: "Merging with the Cloud", done: done, total: total) }
        case .seedEnded(_, let text):
            isMerging = false
            if case .progress? = dialog { dialog = nil }
            message = text
            refresh(force: true)
        case .synced(let text):
            message = text
            refresh(force: true)
        case .imported(let count, let devices, _):
            noteImport(changes: count, devices: devices)
        default:
            break
        }
    }

    // MARK: - Helpers

    /// Long work on the UI thread (a store transition): a progress dialog drawn as it goes.
    private func perform(_ title: String, _ work: (_ progress: (Int, Int) -> Void) throws -> String) {
        isChangingSettings = true
        defer { isChangingSettings = false }
        dialog = .progress(title: title, done: 0, total: 0)
        redraw()
        do {
            message = try work { done, total in
                self.dialog = .progress(title: title, done: done, total: total)
                self.redraw()
            }
        } catch {
            message = "\(title) failed: \(ErrorText.reason(error))"
        }
        dialog = nil
        refresh(force: true)
    }

    /// Saves a change of the device settings, then performs the transition it causes now.
    private func changeSettings(_ change: (inout DeviceSettings) -> Void) {
        isChangingSettings = true
        defer { isChangingSettings = false }
        do {
            var settings = try DeviceSettings.load(from: configuration.sandbox)
            change(&settings)
            try StoreCoordinator.saveSettings(settings, configuration)
            try coordinator.poll()
        } catch {
            message = ErrorText.reason(error)
        }
        refresh(force: true)
    }

    private func loadSettings() -> DeviceSettings? {
        do {
            return try DeviceSettings.load(from: configuration.sandbox)
        } catch {
            message = ErrorText.reason(error)
            return nil
        }
    }

    private func localStoreHasData() -> Bool {
        let url = configuration.localStoreURL
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        if coordinator.current.role == .local { return (try? coordinator.current.store.hasData()) ?? false }
        guard let store = try? configuration.openStore(at: url) else { return false }
        defer { try? store.objects.close() }
        return (try? store.hasData()) ?? false
    }
}
