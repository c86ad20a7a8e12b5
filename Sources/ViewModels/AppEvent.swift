import Foundation
import StoreLifecycle

/// What other threads (the sync engine, background work) tell the UI thread, through its
/// ``Mailbox``. The UI thread applies them to the view models.
public enum AppEvent: Sendable, Equatable {
    /// An import changed `count` objects, from these devices: these `changes`.
    case imported(count: Int, devices: [String], changes: StoreChanges = StoreChanges())
    /// A gap, a rejected file, a failed export: worth a line on the status bar.
    case problem(String)
    /// Deduplication on Prepare's appearance finished, having merged this many objects.
    case deduplicated(merged: Int)
    /// Deduplication stopped (the store went away in a transition); tried again next time.
    case deduplicationFailed(String)
    /// How a merge with the cloud (a seed) advances: objects done, total.
    case seedProgress(done: Int, total: Int)
    /// A merge with the cloud ended: finished, or waiting (offline), or failed, with its words.
    case seedEnded(finished: Bool, message: String)
    /// "Sync now" ended, with its words.
    case synced(String)
    /// A list's order, fetched on another thread after a change made elsewhere.
    case listFetched(ItemListFetch)
    /// The list on screen was removed or merged away on another device (into `survivor`).
    case listGone(NamedList, survivor: NamedList?)

    /// The status line's words: "3 changes from kitchen".
    public var message: String {
        switch self {
        case .imported(let count, let devices, _):
            return BackgroundImport.summary(count: count, devices: devices.sorted())
        case .problem(let text), .synced(let text), .seedEnded(_, let text):
            return text
        case .deduplicationFailed(let reason):
            return "Deduplication not finished: \(reason)"
        case .deduplicated(let merged):
            return merged == 0 ? "No duplicates" : "Merged \(merged) duplicate\(merged == 1 ? "" : "s")"
        case .seedProgress(let done, let total):
            return "Merging with the cloud: \(done)/\(total)"
        case .listFetched(let fetch):
            return fetch.failure.map { "Cannot read the store: \($0)" } ?? ""
        case .listGone(let list, let survivor):
            let by = list.removedBy.map { " by \($0)" } ?? ""
            if let survivor { return "\(list.name) was merged into \(survivor.name)\(by): opening it" }
            return "\(list.name) was removed\(by); its data stays on this device"
        }
    }
}
