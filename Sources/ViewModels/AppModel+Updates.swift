import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// The UI thread's work between keys: background sync started and stopped, the mailbox's
/// events applied, due transitions performed, the screen shown and the status line refreshed.
extension AppModel {
    /// Starts syncing in the background, goes on with an interrupted merge, shows Prepare.
    public func start() {
        // Imports and problems come as the coordinator's messages (``receive(_:)``).
        let wake = mailbox.wake
        coordinator.startBackgroundSync(wake: { wake.wake() })
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

    /// The time on the app's clock: the coordinator's (the system's unless a test gave its own).
    /// What the screens pace their reads with and show as "now".
    public var now: Date { coordinator.now }

    /// Reads the device's state for the status line again, at most once a second unless `force`
    /// (by the coordinator's clock, which a test moves on).
    @discardableResult
    public func refreshSummary(force: Bool = false) -> Bool {
        let now = self.now
        guard force || now.timeIntervalSince(lastSummaryRead) >= 1 else { return false }
        lastSummaryRead = now
        let current = coordinator.current
        var latest = DeviceSummary(device: summary.device)
        // The account whose data is on screen: while a switch waits (an edit to save first),
        // still the old one. With cloud sync off, the account the device is signed in to.
        let settings = try? DeviceSettings.load(from: coordinator.configuration.sandbox)
        latest.account = current.role == .local ? settings?.account : current.account
        latest.cloudOn = current.role != .local
        latest.usingLocalStorage = current.usingLocalStorage
        // Offline and refused files from the device's settings and the background's last round:
        // the UI thread never reads the cloud folder for the status line (a hung mount would
        // freeze the app).
        latest.offline =
            current.role != .local
            && (settings?.offline == true || coordinator.cloudFolderWasUnreachable == true)
        latest.otherCloudFolder = latest.offline && coordinator.cloudFolderWasAnotherOne
        latest.lastSync = try? current.cloudLink?.lastSync()
        latest.refusedFiles = current.cloudLink?.refusedAtLastImport ?? 0
        latest.list = coordinator.configuration.storeName == GroceryStore.defaultStoreName ? nil : listName
        // Claims and presence as background sync last read them; while Shop is open, this
        // device is shopping (background sync keeps that fresh for the other devices).
        let household = coordinator.householdNow
        latest.shoppers = household.othersShopping.map(\.summary)
        let claims = household.claims.mapValues(\.person)
        let claimsChanged = shop.claims != claims
        shop.claims = claims
        coordinator.setShoppingHere(tab == .shop, at: shop.shopName)
        defer { summary = latest }
        return latest != summary || claimsChanged
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
        case .imported(_, let devices, let changes):
            cloud.handle(event)
            say(event.message)
            if changes.touches(GrocerySchema.Entity.shop) { refreshShops() }
            // Who changed what the editor shows, for its marks ("phone set 2 at 18:02").
            if let editor {
                editor.noteImport(by: devices.sorted(), changedThisItem: changes.mayHaveChanged(editor.id))
            }
            // The screen shown reads what the import changed; the others fetch when shown.
            if changingNotice == nil, editor == nil {
                if let list = currentList { list.apply(changes) } else { currentCatalog?.apply(changes) }
            }
        case .problem:
            say(event.message)
        case .listFetched(let fetch):
            (fetch.screen == .prepare ? prepare : shop).receive(fetch)
        case .listGone(let list, let survivor):
            listGone(list, survivor: survivor, message: event.message)
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

    /// Refetches the list or catalog shown (the Cloud screen's status), if the store changed.
    @discardableResult
    func refreshList() -> Bool {
        if tab == .cloud { return cloud.refresh() }
        return currentList?.refreshIfChanged(inBackground: true) ?? currentCatalog?.refreshIfChanged() ?? false
    }

    /// Puts a message on the message line of every screen.
    func say(_ text: String) {
        latestStatus = Message(text)
    }

    /// A word about the last key ("x: no action here — ? for help"): a message like any other,
    /// it fades and never comes back.
    public func hint(_ text: String) {
        say(text)
    }
}
