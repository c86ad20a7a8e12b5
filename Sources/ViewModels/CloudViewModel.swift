import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

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

    public internal(set) var status: CloudStatus?
    public internal(set) var recentImports: [ImportNote] = []
    public internal(set) var dialog: Dialog?
    /// The last message of this screen, with when it was made.
    public internal(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public internal(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// A merge with the cloud runs in the background.
    public internal(set) var isMerging = false
    /// While this screen changes the settings or the store itself: the transitions that follow
    /// are the user's doing here, not a preference changed elsewhere.
    public internal(set) var isChangingSettings = false
    /// Called while long work runs on the UI thread, after each change of ``dialog``'s
    /// progress, so the screen can be drawn (nothing else runs on that thread meanwhile).
    public var redraw: () -> Void = {}

    let coordinator: StoreCoordinator
    let mailbox: Mailbox<AppEvent>
    var configuration: StoreConfiguration { coordinator.configuration }
    /// The action the dialog shown asks about.
    var pending: PendingAction?
    var lastRefresh = Date.distantPast

    enum PendingAction: Equatable {
        case merge, rebuild, disable, startOver, signOut
        case mergeKept(String)
        case release(HeldBackLog)
    }

    public init(coordinator: StoreCoordinator, mailbox: Mailbox<AppEvent>) {
        self.coordinator = coordinator
        self.mailbox = mailbox
    }

    // MARK: - Status

    /// Reads the status again (at most once a second unless `force`, by the coordinator's
    /// clock, which a test moves on). Returns whether it changed.
    @discardableResult
    public func refresh(force: Bool = false) -> Bool {
        let now = coordinator.now
        guard force || now.timeIntervalSince(lastRefresh) >= 1 else { return false }
        lastRefresh = now
        do {
            let latest = try coordinator.status()
            defer { status = latest }
            return latest != status
        } catch {
            message = "Cannot read the cloud status: \(ErrorText.reason(error))"
            return true
        }
    }

    /// Remembers an import for the screen's list (the last ten), stamped by the coordinator's clock.
    public func noteImport(changes: Int, devices: [String]) {
        recentImports.insert(ImportNote(at: coordinator.now, changes: changes, devices: devices), at: 0)
        if recentImports.count > 10 { recentImports.removeLast() }
    }
}
