import Foundation
import GroceryModel
import Logging
import StoreLifecycle

/// The coordinator's messages reaching every view model: will change, did change, postponed
/// applied at once; what the background tells posted to the mailbox.
extension AppModel {
    /// The coordinator's messages (``StoreMessage``). A transition arrives on this, the UI,
    /// thread, and is applied before the coordinator goes on (the save loop). Imports, problems
    /// and a merge's progress arrive on background threads: they are only posted to the
    /// ``mailbox`` (thread-safe, as is the logger), which ``update()`` applies on the UI thread.
    func receive(_ message: StoreMessage) {
        switch message {
        case .storesWillChange(let change):
            let notice = Self.changingNotice(change.transition)
            changingNotice = notice
            editor?.storeWillChange()
            for list in lists { list.storeWillChange(notice) }
            logger.info("storesWillChange: \(change.transition.rawValue)")
        case .storesDidChange(let change):
            changingNotice = nil
            undoHistory.removeAll()
            refreshSummary(force: true)
            let store = coordinator.current.store
            for list in lists { list.storeDidChange(to: store, message: change.summary) }
            restoreShownShop()
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
            for list in lists { list.storeChangePostponed() }
            say(
                "\(change.transition.rawValue) waits: \(editor?.fieldError.map(String.init(describing:)) ?? editor?.message ?? "unsaved changes")"
            )
        case .imported(let done):
            mailbox.post(.imported(count: done.count, devices: done.devices, changes: StoreChanges(done)))
        case .problem(let problem):
            logger.warning("\(problem)")
            mailbox.post(.problem(problem))
        case .seedProgress(let done, let total):
            mailbox.post(.seedProgress(done: done, total: total))
        case .otherListSynced(let visit):
            // The device's other lists, kept in sync in the background: the log says what
            // came; a problem is worth the status line.
            if let imported = visit.imported { logger.info("list \(visit.list.name): \(imported.summary)") }
            if let problem = visit.problem {
                logger.warning("list \(visit.list.name): \(problem)")
                mailbox.post(.problem("List \(visit.list.name): \(problem)"))
            }
        case .listGone(let list, let survivor):
            mailbox.post(.listGone(list, survivor: survivor))
        }
    }

    /// Every list screen, each following the store's transitions alike.
    var lists: [any StoreFollowingList] { [prepare, shop, units, homeLocations, shopAisles] }

    /// After a transition: the notice of a preference changed elsewhere, the merge prompt or the
    /// merge itself, and Prepare's deduplication on the new store.
    func didChange(_ transition: StoreTransition) {
        // Apple's notice is for the cloud sync preference changed elsewhere; an account switch
        // is no such change: the status line names the account, the message says what changed.
        let preference: Set<StoreTransition> = [.cloudEnabled, .cloudDisabled]
        if preference.contains(transition), !cloud.isChangingSettings {
            notice = .message(
                title: CloudMessages.preferenceChanged, message: CloudMessages.preferenceChangedExplanation)
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
