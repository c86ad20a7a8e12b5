import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// Merging with the cloud in the background, and what background work reports.
extension CloudViewModel {
    func enable(merge: Bool) {
        let enabled = changeSettings(failure: merge ? "Cannot merge: " : "") {
            try StoreCoordinator.enableCloudSync(configuration, mergingLocalStore: merge, at: coordinator.now)
        }
        if enabled && merge { resumeMerge() }
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
        // Its progress reaches the mailbox as the coordinator's messages (``AppModel``).
        coordinator.resumeSeedInBackground(
            finished: { result in
                switch result {
                case .success(let seed):
                    mailbox.post(
                        .seedEnded(
                            finished: seed.finished,
                            message: seed.waiting.map { "Merging with the cloud: \($0)" }
                                ?? "Merged with the cloud: \(seed.objectsText)"))
                case .failure(let error):
                    mailbox.post(
                        .seedEnded(
                            finished: false, message: "Merge with the cloud not finished: \(AppErrorText.reason(error))"
                        ))
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
}
