import Foundation
import GroceryModel

/// A list screen's view model — Prepare, Shop, units, home locations, shop aisles — as a store
/// transition sees it. Every list follows a transition alike: at will-change it stops reading
/// and closes its dialog, saying why input waits; when the change waits it goes on with its
/// store; at did-change it forgets what it read from the old store and fetches from the new one.
protocol StoreFollowingList: AnyObject {
    var binding: StoreBinding { get set }
    var dialog: Dialog? { get set }
    var message: String? { get set }
    /// Fetches what changed since the last fetch (everything, after a new store).
    func refetch()
    /// Forgets the work it started on the old store besides its fetch (a deduplication).
    func forgetWorkOnOldStore()
}

extension StoreFollowingList {
    /// `storesWillChange`: stop touching the store. Lists save each change as it is made, so
    /// they have nothing left to save; they keep only IDs, never a row to write back.
    func storeWillChange(_ message: String) {
        binding.willChange()
        dialog = nil
        self.message = message
    }

    /// The change announced waits: the list goes on with its store.
    func storeChangePostponed() {
        binding.changePostponed()
    }

    /// `storesDidChange`: forget everything read from the old store, fetch from the new one.
    func storeDidChange(to store: GroceryStore, message: String) {
        binding.didChange(to: store)
        forgetWorkOnOldStore()
        refetch()
        self.message = message
    }
}
