import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

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
    public internal(set) var editor: ItemEditorViewModel?
    public internal(set) var tab: Tab = .prepare
    /// While the store changes, why input is off ("Updating from the cloud…"); `nil` otherwise.
    public internal(set) var changingNotice: String?
    /// An app-wide notice with [OK] ("your preference on cloud sync changed").
    public internal(set) var notice: Dialog?
    /// The latest app-wide message (imports, problems, transitions, undo), shown on every screen.
    public internal(set) var latestStatus: Message?
    /// Its words.
    public var statusMessage: String? { latestStatus?.text }

    /// What the status line says about the device: kept up to date by ``update()``.
    public internal(set) var summary: DeviceSummary

    /// The list switcher, while it is open.
    public internal(set) var listSwitcher: ListSwitcher?
    /// Two lists of one name the user asked to merge (`+` in the switcher), while the question waits.
    var listMergeAsked: (from: NamedList, into: NamedList)?
    /// Why undo asks first (an added item another device changed since), while it waits.
    var undoAsked: String?
    /// Lines pasted into Add, while "Add 3 Items?" waits.
    var pastedItems: [String]?
    /// The name of the list on screen ("Groceries" for the default list).
    public internal(set) var listName = NamedLists.defaultDisplayName
    /// How many shops the list has, and the one Shop and Aisles show (``shownShop``).
    var shopCount = 1
    var shopNamed: ShopEntry?

    let logger: Logger
    var lastPollFailure: String?
    var lastSummaryRead = Date.distantPast

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
        restoreShownShop()
        refreshSummary(force: true)
        coordinator.subscribe { [weak self] message in self?.receive(message) }
        // Core Data's save loop: a transition waits while the editor has unsaved edits.
        coordinator.hasUnsavedChanges = { [weak self] in self?.editor?.hasUnsavedChanges ?? false }
    }

    /// Input is off while the store changes, and while long work shows its progress.
    public var isInputEnabled: Bool {
        if changingNotice != nil { return false }
        if case .progress? = dialog { return false }
        return true
    }
}
