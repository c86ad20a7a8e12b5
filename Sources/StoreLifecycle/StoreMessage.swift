import Foundation

/// Everything the store layer tells the app, in one stream (``StoreCoordinator/subscribe(_:)``):
/// the store changing under it, what the background imported, its problems, how a merge with
/// the cloud advances.
///
/// Which thread a message arrives on is part of its meaning:
///
/// - the three transition messages arrive synchronously on the thread that runs the transition
///   (the one that calls ``StoreCoordinator/poll()`` or a transition: the app's UI thread), in
///   order — will change (repeated while the app still has changes to save), then did change or
///   postponed. The save loop depends on it: the app saves, and drops the store, before the
///   coordinator goes on;
/// - ``imported(_:)`` and ``problem(_:)`` arrive on the background sync's threads (the watcher's,
///   the one-time setup's), except a problem found while starting it, on the caller's thread;
/// - ``seedProgress(done:total:)`` arrives on the thread that runs the merge: the caller's
///   (``StoreCoordinator/startSeed(from:)``, ``StoreCoordinator/resumeSeed()``, a command's
///   preparation) or the merge's own (``StoreCoordinator/resumeSeedInBackground(finished:)``).
///
/// The app applies the transitions at once and posts the others to its UI thread's mailbox.
public enum StoreMessage: Sendable, Equatable {
    /// The store is about to change: save now, stop using it. Repeated while the app says it
    /// still has changes to save.
    case storesWillChange(StoreChange)
    /// The new store is in place: reset and fetch again.
    case storesDidChange(StoreChange)
    /// The change announced by `storesWillChange` waits (the app could not save everything):
    /// the app keeps its store and takes input again; the change is tried at the next poll.
    case storesChangePostponed(StoreChange)
    /// An import in the background changed objects of the store (one message an import).
    case imported(BackgroundImport)
    /// A line worth showing from the background: a gap that holds a device back, a refused file,
    /// data that diverges from a peer's, a failed round or setup. A gap or a refused file is told
    /// when it appears; a failure may be told at every round while it lasts.
    case problem(String)
    /// How a merge with the cloud (a seed) advances: objects done, of the total.
    case seedProgress(done: Int, total: Int)
    /// Another list of the device than the one on screen was brought up to date in the
    /// background and that did something (``ListVisit``); on the list follower's thread.
    case otherListSynced(ListVisit)
    /// The list on screen was removed, or merged into another (the survivor, when known), by
    /// another device; told once, on the list follower's thread.
    case listGone(NamedList, survivor: NamedList?)
}
