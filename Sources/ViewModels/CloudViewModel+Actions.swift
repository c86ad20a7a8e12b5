import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// The Cloud screen's actions: sync now, offline, account, enable and disable, rebuild, start
/// over, releasing a refused file; and the settings they change.
extension CloudViewModel {
    // MARK: - Sync now, offline

    /// Exports what waits and imports what arrived, on another thread; the answer comes back
    /// through the mailbox (``AppEvent/synced(_:)``).
    public func syncNow() {
        let device = coordinator.current
        guard let sync = device.cloudLink else {
            message = "Cloud sync is off on this device"
            return
        }
        guard !device.isOffline else {
            message =
                coordinator.configuration.cloudFolderProblem.map { $0.prefix(1).uppercased() + $0.dropFirst() }
                ?? "Offline: go online first"
            return
        }
        message = "Syncing…"
        let mailbox = mailbox
        Thread.detachNewThread {
            do {
                let exported = try sync.exportPending()
                let applied = try sync.importPending()
                mailbox.post(
                    .synced("Synced: exported \(exported) log\(exported == 1 ? "" : "s"), imported \(applied)"))
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
        let account = try CloudNames.checkedAccount(typed)
        changeSettings { $0.account = account }
    }

    /// `O`: asks before signing out (the account's data stays on the device, unused until the
    /// device signs in again).
    public func requestSignOut() {
        guard let account = loadSettings()?.account else {
            message = "Already signed out (i signs in)"
            return
        }
        pending = .signOut
        dialog = .confirm(
            title: "Sign Out?",
            message:
                "This device leaves account \"\(account)\": it works on its own local store until you sign in again (i). The account's data stays on this device and in the cloud folder.",
            action: "Sign Out")
    }

    /// `M`: asks before merging the newest store kept aside (a start over, a rebuild, a disable)
    /// into this device's cloud store, from which it reaches every device; the file goes once
    /// merged. `cloud merge-kept FILE` merges any other.
    public func requestMergeKept() {
        guard let kept = status?.kept.first else {
            message = "No store is kept aside on this device"
            return
        }
        guard coordinator.current.role == .cloud else {
            message =
                coordinator.current.role == .local
                ? "Turn cloud sync on first (c): the kept store merges into the cloud store"
                : "The cloud store is not set up yet (offline?): merge the kept store once it is"
            return
        }
        let items = kept.items.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "unreadable"
        pending = .mergeKept(kept.path)
        dialog = .confirm(
            title: "Merge Kept Store?",
            message:
                "\(kept.fileName) (\(items)), kept by \(kept.label), goes into this device's cloud store and from there to every device. Items of one name become one. The file is removed once merged.",
            action: "Merge")
    }

    func mergeKept(_ path: String) {
        let url = URL(fileURLWithPath: path)
        perform("Merging the kept store") { [coordinator] _ in
            let result = try coordinator.startSeed(from: url)
            if let waiting = result.waiting { return "Merging the kept store: \(waiting)" }
            return "Merged \(url.lastPathComponent): \(result.objectsText); the file is removed"
        }
    }

    public func signOut() {
        changeSettings { $0.account = nil }
    }

    // MARK: - Enable, disable

    /// `c`: turns cloud sync on when the device is on its local store, off otherwise.
    public func toggleSync() {
        guard loadSettings()?.account != nil else {
            message = "Signed out: sign in to an account first (i)"
            return
        }
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
            enable(merge: false)
        }
    }

    /// The merge prompt for a cloud store that loaded while the local store has data (cloud
    /// sync turned on by another terminal). Nothing happens if there is no local data.
    public func offerMerge() {
        guard dialog == nil, coordinator.current.role != .local, localStoreHasData() else { return }
        askToMerge()
    }

    func askToMerge() {
        pending = .merge
        dialog = .choice(
            title: CloudMessages.mergeQuestion, message: CloudMessages.mergeExplanation,
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
        let message =
            localStoreHasData()
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
        dialog = .confirm(
            title: "Rebuild from the Cloud?",
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
            message:
                "This deletes \(configuration.storeName) in account \(account) from the cloud, for every device. Each device keeps its data aside, but it no longer syncs. Type \"\(CloudMessages.startOverPhrase)\" to go on.",
            phrase: CloudMessages.startOverPhrase, action: "Start Over")
    }

    // MARK: - Refused files

    /// Asks before skipping the first refused log that holds its device back, saying what is
    /// lost: that log's changes, on this device.
    public func requestRelease() {
        guard let refusal = coordinator.current.cloudLink?.firstHeldBackLog() else {
            message = "No refused log holds a device back"
            return
        }
        pending = .release(refusal)
        dialog = .confirm(
            title: "Skip the Refused Log?",
            message:
                "\(refusal.summary). Skipping it loses on this device what it holds: \(refusal.contentSummary). That device's later logs are then applied.",
            action: "Skip Log")
    }

    func release(_ refusal: HeldBackLog) {
        guard let link = coordinator.current.cloudLink else { return }
        do {
            try link.release(refusal)
            coordinator.journal(event: "peerReleased", detail: "skipped \(refusal.summary)")
            message =
                "Skipped log \(refusal.seq) of \(refusal.device ?? refusal.peer); its later logs arrive with the next sync"
            syncNow()
        } catch {
            message = "Not skipped: \(ErrorText.reason(error))"
        }
        refresh(force: true)
    }

    // MARK: - Settings

    /// Long work on the UI thread (a store transition): a progress dialog drawn as it goes.
    func perform(_ title: String, _ work: (_ progress: (Int, Int) -> Void) throws -> String) {
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
            message = "\(title) failed: \(AppErrorText.reason(error))"
        }
        dialog = nil
        refresh(force: true)
    }

    /// Saves a change of the device settings, then performs the transition it causes now.
    func changeSettings(_ change: (inout DeviceSettings) -> Void) {
        changeSettings {
            var settings = try DeviceSettings.load(from: configuration.sandbox)
            change(&settings)
            try StoreCoordinator.saveSettings(settings, configuration, at: coordinator.now)
        }
    }

    /// Saves the device settings with `save`, then performs the transition it causes now.
    /// Returns whether they were saved; if not, the message says why, after `failure`.
    @discardableResult
    func changeSettings(failure: String = "", _ save: () throws -> Void) -> Bool {
        isChangingSettings = true
        defer { isChangingSettings = false }
        var saved = false
        do {
            try save()
            saved = true
            try coordinator.poll()
        } catch {
            message = (saved ? "" : failure) + AppErrorText.reason(error)
        }
        refresh(force: true)
        return saved
    }

    func loadSettings() -> DeviceSettings? {
        do {
            return try DeviceSettings.load(from: configuration.sandbox)
        } catch {
            message = ErrorText.reason(error)
            return nil
        }
    }

    func localStoreHasData() -> Bool {
        ((try? StoreCoordinator.localData(configuration, current: coordinator.current)) ?? nil) != nil
    }
}
