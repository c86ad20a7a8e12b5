import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import Ubiquity

/// The whole app's state: every screen's view model, which one shows, the item editor when open,
/// and the app-wide dialogs (the merge prompt, progress, "your preference on cloud sync changed").
///
/// Used from the UI thread only. The coordinator's transitions reach the view models here,
/// synchronously (will-change: input off, edits saved, rows dropped; did-change: input on,
/// refetch). Other threads (sync, deduplication, a merge) post ``AppEvent``s to the ``mailbox``;
/// ``update()`` applies them, performs what the coordinator has due, and refreshes the visible
/// screen.
public final class AppModel {
    public enum Tab: Int, CaseIterable, Sendable {
        case prepare, shop, units, homeLocations, shopAisles, cloud

        public var title: String {
            switch self {
            case .prepare: "Prepare"
            case .shop: "Shop"
            case .units: "Units"
            case .homeLocations: "Home"
            case .shopAisles: "Aisles"
            case .cloud: "Cloud"
            }
        }
    }

    public let coordinator: StoreCoordinator
    public let mailbox: Mailbox<AppEvent>
    public let prepare: ItemListViewModel
    public let shop: ItemListViewModel
    public let units: CatalogListViewModel
    public let homeLocations: CatalogListViewModel
    public let shopAisles: CatalogListViewModel
    public let cloud: CloudViewModel
    /// The changes made here that `u` undoes.
    public let undoHistory = UndoHistory()
    /// The item editor, while one is open (over the list it was opened from).
    public private(set) var editor: ItemEditorViewModel?
    public private(set) var tab: Tab = .prepare
    /// While the store changes, why input is off ("Updating from the cloud…"); `nil` otherwise.
    public private(set) var changingNotice: String?
    /// An app-wide notice with [OK] ("your preference on cloud sync changed").
    public private(set) var notice: Dialog?
    /// The latest app-wide message (imports, problems, transitions, undo), shown on every screen.
    public private(set) var latestStatus: Message?
    /// Its words.
    public var statusMessage: String? { latestStatus?.text }

    /// What the status line says about the device: kept up to date by ``update()``.
    public private(set) var summary: DeviceSummary

    private let logger: Logger
    private var lastPollFailure: String?
    private var lastSummaryRead = Date.distantPast

    public init(coordinator: StoreCoordinator, mailbox: Mailbox<AppEvent> = Mailbox(), logger: Logger = .silent) {
        self.coordinator = coordinator
        self.mailbox = mailbox
        self.logger = logger
        let store = coordinator.current.store
        let device = coordinator.configuration.sandbox.device
        prepare = ItemListViewModel(store: store, device: device, screen: .prepare, mailbox: mailbox, undo: undoHistory)
        shop = ItemListViewModel(store: store, device: device, screen: .shop, mailbox: mailbox, undo: undoHistory)
        units = CatalogListViewModel(store: store, kind: .unit)
        homeLocations = CatalogListViewModel(store: store, kind: .home)
        shopAisles = CatalogListViewModel(store: store, kind: .shop)
        cloud = CloudViewModel(coordinator: coordinator, mailbox: mailbox)
        summary = DeviceSummary(device: device)
        if coordinator.current.role == .fallback {
            say("Setting up the cloud store… (Using local storage: 1)")
        }
        refreshListName()
        refreshSummary(force: true)
        coordinator.observe { [weak self] notification in self?.receive(notification) }
        // Core Data's save loop: a transition waits while the editor has unsaved edits.
        coordinator.hasUnsavedChanges = { [weak self] in self?.editor?.hasUnsavedChanges ?? false }
    }

    /// Input is off while the store changes, and while long work shows its progress.
    public var isInputEnabled: Bool {
        if changingNotice != nil { return false }
        if case .progress? = dialog { return false }
        return true
    }

    // MARK: - Running

    /// Starts syncing in the background, goes on with an interrupted merge, shows Prepare.
    public func start() {
        let mailbox = mailbox, logger = logger
        coordinator.startBackgroundSync(
            wake: { mailbox.wake.wake() },
            onImport: { report in mailbox.post(.imported(count: report.changes.count, devices: Array(report.devices))) },
            onProblem: { problem in
                logger.warning("\(problem)")
                mailbox.post(.problem(problem))
            })
        cloud.resumeMerge()
        show(tab)
    }

    public func stop() {
        coordinator.stopBackgroundSync()
    }

    /// On the UI thread, whenever it wakes (a key, the mailbox, or every 250 ms): applies what
    /// other threads posted, performs the transitions that are due, refreshes the screen shown.
    ///
    /// - Returns: whether anything changed that the screen shows.
    @discardableResult
    public func update() -> Bool {
        var changed = false
        for event in mailbox.take() {
            handle(event)
            changed = true
        }
        do {
            changed = try coordinator.poll() || changed
            lastPollFailure = nil
        } catch {
            // Tried again at every tick (a damaged settings file, an unwritable folder): said once.
            let reason = ErrorText.reason(error)
            if reason != lastPollFailure {
                lastPollFailure = reason
                logger.error("store transition failed: \(reason)")
                say("Store change failed: \(reason)")
                changed = true
            }
        }
        changed = refreshSummary() || changed
        return refreshVisible() || changed
    }

    /// Reads the device's state for the status line again, at most once a second unless `force`.
    @discardableResult
    public func refreshSummary(force: Bool = false) -> Bool {
        guard force || Date().timeIntervalSince(lastSummaryRead) >= 1 else { return false }
        lastSummaryRead = Date()
        let current = coordinator.current
        var latest = DeviceSummary(device: summary.device)
        // The account whose data is on screen: while a switch waits (an edit to save first),
        // still the old one. With cloud sync off, the account the device is signed in to.
        latest.account = current.role == .local
            ? (try? DeviceSettings.load(from: coordinator.configuration.sandbox))?.account
            : current.account
        latest.cloudOn = current.role != .local
        latest.usingLocalStorage = current.usingLocalStorage
        latest.offline = current.role != .local && coordinator.configuration.isOffline
        latest.lastSync = try? current.sync?.lastSync()
        // From the last import in the background: the UI thread never reads the cloud folder
        // for the status line (a hung mount would freeze the app).
        latest.refusedFiles = current.sync?.refusedAtLastImport ?? 0
        latest.list = coordinator.configuration.storeName == GroceryStore.defaultStoreName ? nil : listName
        defer { summary = latest }
        return latest != summary
    }

    /// Applies one message from another thread.
    public func handle(_ event: AppEvent) {
        switch event {
        case .deduplicated:
            prepare.handle(event)
            shop.refreshIfChanged()
        case .deduplicationFailed:
            prepare.handle(event)
        case .seedProgress, .synced:
            cloud.handle(event)
        case .seedEnded:
            cloud.handle(event)
            say(event.message)
        case .imported:
            cloud.handle(event)
            say(event.message)
        case .problem:
            say(event.message)
        }
    }

    /// Refetches what the shown screen displays, if the store changed.
    @discardableResult
    public func refreshVisible() -> Bool {
        guard changingNotice == nil else { return false }
        if let editor {
            let changed = editor.refreshIfChanged()
            if let reason = editor.closedBecause {
                self.editor = nil
                say(reason)
                refreshList()
                return true
            }
            return changed
        }
        return refreshList()
    }

    private func refreshList() -> Bool {
        if tab == .cloud { return cloud.refresh() }
        return currentList?.refreshIfChanged() ?? currentCatalog?.refreshIfChanged() ?? false
    }

    /// Puts a message on the message line of every screen.
    private func say(_ text: String) {
        latestStatus = Message(text)
    }

    /// A word about the last key ("x: no action here — ? for help"): a message like any other,
    /// it fades and never comes back.
    public func hint(_ text: String) {
        say(text)
    }

    // MARK: - Navigation

    /// Shows a screen. Prepare deduplicates in the background each time it appears.
    public func show(_ tab: Tab) {
        guard isInputEnabled else { return }
        self.tab = tab
        switch tab {
        case .prepare: prepare.appear()
        case .cloud: cloud.refresh(force: true)
        default: refreshList()
        }
    }

    /// The item list shown, if the screen is Prepare or Shop.
    public var currentList: ItemListViewModel? {
        switch tab {
        case .prepare: prepare
        case .shop: shop
        default: nil
        }
    }

    /// The units, home locations or shop aisles list shown, if the screen is one of them.
    public var currentCatalog: CatalogListViewModel? {
        switch tab {
        case .units: units
        case .homeLocations: homeLocations
        case .shopAisles: shopAisles
        default: nil
        }
    }

    /// The newest message for the screen shown: its own (the editor's when it is open) or an
    /// app-wide one, for the line a message shares with the key hints. How long it shows is the
    /// terminal's business (it fades a few seconds after it was made).
    public var screenMessage: Message? {
        let own = if let editor { editor.latestMessage } else if tab == .cloud { cloud.latestMessage }
            else { currentList?.latestMessage ?? currentCatalog?.latestMessage }
        return Message.newest(own, latestStatus)
    }

    /// Opens the item editor on an item (marking it modified, as the book does).
    ///
    /// In the editor `s` saves and stays; `q` or Esc leave (``leaveEditor()``), asking first when
    /// there are unsaved changes.
    public func openEditor(_ id: GlobalID) {
        guard isInputEnabled, editor == nil else { return }
        do {
            editor = try ItemEditorViewModel(store: coordinator.current.store, id: id, undo: undoHistory)
        } catch {
            say("Cannot open the item: \(ErrorText.reason(error))")
        }
    }

    /// `q` or Esc in the editor: it closes at once when nothing is unsaved; otherwise it asks
    /// "Unsaved changes to …": Save (``answerDialog(_:)`` with `true`), Discard (`false`), or Esc
    /// back to editing (``cancelDialog()``).
    public func leaveEditor() {
        guard let editor else { return }
        if editor.hasUnsavedChanges { editor.askBeforeLeaving() } else { closeEditor() }
    }

    /// Closes the editor, saving its edits first unless `discard`. When the save fails the
    /// editor stays open, as it was, saying which field is wrong; discarding always closes it.
    public func closeEditor(discard: Bool = false) {
        guard let editor else { return }
        editor.dismissDialog()
        if editor.hasUnsavedChanges {
            if discard {
                say("Changes to \(editor.savedName) discarded")
            } else {
                guard editor.save() else { return }
                say(editor.message ?? "Saved")
            }
        }
        self.editor = nil
        refreshList()
        currentList?.select(editor.id)
    }

    /// Undoes the last toggle, edit, delete or clear made on this device.
    public func undo() {
        guard isInputEnabled, editor == nil else { return }
        say(undoHistory.undoLast(in: coordinator.current.store))
        refreshVisible()
    }

    /// Redoes the last change undone (`U`, Ctrl-R).
    public func redo() {
        guard isInputEnabled, editor == nil else { return }
        say(undoHistory.redoLast(in: coordinator.current.store))
        refreshVisible()
    }

    // MARK: - Named lists

    /// The list switcher, while it is open.
    public private(set) var listSwitcher: ListSwitcher?
    /// The name of the list on screen ("Groceries" for the default list).
    public private(set) var listName = NamedLists.defaultDisplayName

    private var namedLists: NamedLists { NamedLists(configuration: coordinator.configuration) }

    /// Reads the name of the list on screen again (it may have been renamed on another device).
    public func refreshListName() {
        listName = (try? namedLists.resolve(coordinator.configuration.storeName).name) ?? coordinator.configuration.storeName
    }

    /// `L`: the device's lists, to switch to another or make a new one.
    public func openListSwitcher() {
        guard isInputEnabled, editor == nil, dialog == nil else { return }
        do {
            let lists = try namedLists.all()
            let current = coordinator.configuration.storeName
            listSwitcher = ListSwitcher(lists: lists, current: current)
            // Renamed on another device meanwhile: the status line follows.
            if let shown = lists.first(where: { $0.storeName == current }) { listName = shown.name }
        } catch {
            say("Cannot read the lists: \(ErrorText.reason(error))")
        }
    }

    public func closeListSwitcher() { listSwitcher = nil }

    public func moveListSwitcher(by delta: Int) { listSwitcher?.move(by: delta) }
    public func moveListSwitcher(to index: Int) { listSwitcher?.move(to: index) }
    /// A letter in the switcher: jumps to the list it spells; `false` when none matches.
    public func typeAheadInListSwitcher(_ character: Character, now: TimeInterval = Message.now) -> Bool {
        listSwitcher?.typeAhead(character, now: now) ?? false
    }

    /// `/` in the switcher: the next letters type ahead, even j, k, g and q.
    public func beginTypeAheadInListSwitcher(now: TimeInterval = Message.now) {
        listSwitcher?.beginTypeAhead(now: now)
    }

    /// Enter in the switcher: opens the selected list, or — on "new list…" — returns `true`: a
    /// name is needed (``createList(named:)``).
    public func chooseInListSwitcher() -> Bool {
        guard let switcher = listSwitcher else { return false }
        switch switcher.selected {
        case .new: return true
        case .list(let list):
            listSwitcher = nil
            switchList(to: list)
            return false
        }
    }

    /// Makes a new list and opens it. Throws when the name is refused (the line stays open).
    public func createList(named name: String) throws {
        let list = try namedLists.create(name)
        listSwitcher = nil
        switchList(to: list)
    }

    /// Opens `list` through a transition like an account switch: input waits, the screens drop
    /// their rows, and refetch from the list's store.
    private func switchList(to list: NamedList) {
        do {
            if try coordinator.switchStore(named: list.storeName) {
                listName = list.name
                say("List: \(list.name)")
            }
        } catch {
            say("Cannot open the list \(list.name): \(ErrorText.reason(error))")
        }
    }

    // MARK: - Dialogs

    /// The dialog shown now: long work's progress and the merge prompt first (over any screen),
    /// then an app-wide notice, then the screen's own (the editor's when it is open).
    public var dialog: Dialog? {
        if isCloudDialogShown { return cloud.dialog }
        if let notice { return notice }
        if let editor { return editor.dialog }
        return currentList?.dialog ?? currentCatalog?.dialog
    }

    private var isCloudDialogShown: Bool { cloud.dialog != nil && (tab == .cloud || cloud.isDialogAppWide) }

    /// Answers the dialog shown: `true` for its action, `false` for the other button or Esc.
    public func answerDialog(_ accepted: Bool) {
        if isCloudDialogShown {
            cloud.answerDialog(accepted)
        } else if notice != nil {
            notice = nil
        } else if let editor {
            // "Unsaved changes to …": Save, or Discard.
            if editor.dialog != nil { closeEditor(discard: !accepted) }
        } else {
            if let list = currentList { list.answerDialog(accepted) } else { currentCatalog?.answerDialog(accepted) }
        }
    }

    /// Closes the dialog shown without acting: Esc or `q`. A choice is not answered (no merge,
    /// and cloud sync stays as it was), a confirmation is declined, a notice is dismissed.
    public func cancelDialog() {
        if isCloudDialogShown {
            cloud.cancelDialog()
        } else if notice != nil {
            notice = nil
        } else if let editor {
            editor.dismissDialog()  // back to editing, the edits kept
        } else {
            if let list = currentList { list.answerDialog(false) } else { currentCatalog?.answerDialog(false) }
        }
    }

    /// Answers a typed confirmation with the text typed.
    public func answerTyped(_ text: String) {
        cloud.answerTyped(text)
    }

    // MARK: - Store transitions

    /// The coordinator's notices. Transitions come on this (the UI) thread; imports are posted
    /// to the mailbox by the background sync and need nothing here.
    private func receive(_ notification: StoreNotification) {
        switch notification {
        case .storesWillChange(let change):
            let notice = Self.changingNotice(change.transition)
            changingNotice = notice
            editor?.storeWillChange()
            for list in [prepare, shop] { list.storeWillChange(notice) }
            for catalog in [units, homeLocations, shopAisles] { catalog.storeWillChange(notice) }
            logger.info("storesWillChange: \(change.transition.rawValue)")
        case .storesDidChange(let change):
            changingNotice = nil
            undoHistory.removeAll()
            refreshSummary(force: true)
            let store = coordinator.current.store
            for list in [prepare, shop] { list.storeDidChange(to: store, message: change.summary) }
            for catalog in [units, homeLocations, shopAisles] { catalog.storeDidChange(to: store, message: change.summary) }
            say(change.summary)
            if let editor {
                editor.storeDidChange(to: store)
                if let reason = editor.closedBecause {
                    self.editor = nil
                    say(reason)
                }
            }
            logger.info("storesDidChange: \(change.transition.rawValue)")
            didChange(change.transition)
        case .storesChangePostponed(let change):
            // The editor could not save: the app stays on its store, input back on, so the user
            // can fix the edit; the change is tried again at the next poll.
            changingNotice = nil
            editor?.storeChangePostponed()
            for list in [prepare, shop] { list.storeChangePostponed() }
            for catalog in [units, homeLocations, shopAisles] { catalog.storeChangePostponed() }
            say("\(change.transition.rawValue) waits: \(editor?.fieldError.map(String.init(describing:)) ?? editor?.message ?? "unsaved changes")")
        case .didImportContentChanges:
            break
        }
    }

    /// After a transition: the notice of a preference changed elsewhere, the merge prompt or the
    /// merge itself, and Prepare's deduplication on the new store.
    private func didChange(_ transition: StoreTransition) {
        // Apple's notice is for the cloud sync preference changed elsewhere; an account switch
        // is no such change: the status line names the account, the message says what changed.
        let preference: Set<StoreTransition> = [.cloudEnabled, .cloudDisabled]
        if preference.contains(transition), !cloud.isChangingSettings {
            notice = .message(title: CloudMessages.preferenceChanged, message: CloudMessages.preferenceChangedExplanation)
            // Turned on by another terminal: this device's local data may want to come along.
            if transition == .cloudEnabled, coordinator.pendingSeedSource == nil { cloud.offerMerge() }
        }
        cloud.resumeMerge()
        if tab == .prepare { prepare.appear() }
    }

    static func changingNotice(_ transition: StoreTransition) -> String {
        switch transition {
        case .initialImportCompleted: "Updating from the cloud…"
        case .accountAdded, .accountRemoved, .accountChanged: "Switching account…"
        case .contentRemoved: "The cloud content was removed; moving to a new store…"
        case .cloudEnabled: "Turning on cloud sync…"
        case .cloudDisabled: "Turning off cloud sync…"
        case .rebuilt: "Rebuilding from the cloud…"
        case .storeSwitched: "Opening the list…"
        }
    }
}

/// The device's state in a few words, for the status line.
public struct DeviceSummary: Equatable, Sendable {
    public var device: String
    public var account: String?
    public var cloudOn = false
    /// "Using local storage: 1": the local store, or the fallback until the cloud store is set up.
    public var usingLocalStorage = true
    public var offline = false
    public var lastSync: Date?
    /// Files of the cloud folder refused (the Cloud tab lists them).
    public var refusedFiles = 0
    /// The named list on screen, when it is not the default one.
    public var list: String?
}
