import Foundation
import GroceryModel
import TextAndFiles

/// A list's order fetched on another thread, with what it was fetched for: the screen, the
/// store's change token, the query, and the list's generation (``StoreBinding``), so that the UI
/// thread tells an order still wanted from one a new query or a new store made stale.
public struct ItemListFetch: Sendable, Equatable {
    public let screen: ItemListViewModel.Screen
    let generation: Int
    let token: Int64
    let query: ItemListQuery
    /// The order; `nil` when it could not be read, with ``failure`` saying why.
    let index: ItemListIndex?
    /// Why the order could not be read, if it could not.
    public let failure: String?
}

extension ItemListViewModel {
    /// Fetches the order for `token` on another thread and posts it to `mailbox`; nothing when a
    /// fetch is under way (when it arrives, the next refresh asks again if the store moved on).
    func fetchInBackground(_ token: Int64, _ mailbox: Mailbox<AppEvent>) {
        guard fetchingToken == nil else { return }
        fetchingToken = token
        let store = store
        let screen = screen
        let generation = binding.generation
        let query = query
        Thread.detachNewThread {
            var index: ItemListIndex?
            var failure: String?
            do {
                index = try store.itemIndex(query)
            } catch {
                failure = ErrorText.reason(error)
            }
            mailbox.post(
                .listFetched(
                    ItemListFetch(
                        screen: screen, generation: generation, token: token, query: query,
                        index: index, failure: failure)))
        }
    }

    /// An order fetched on another thread, on the UI thread: shown when it is still wanted —
    /// same store and query, newer than what the list shows, no transition under way.
    ///
    /// - Returns: whether the list changed.
    @discardableResult
    public func receive(_ fetch: ItemListFetch) -> Bool {
        fetchingToken = nil
        guard fetch.generation == binding.generation, fetch.query == query, !isStoreChanging,
            fetch.token > binding.fetchedToken
        else { return false }
        if let fetched = fetch.index {
            indexFetches += 1
            adopt(fetched, token: fetch.token)
        } else {
            message = "Cannot read the store: \(fetch.failure ?? "unknown error")"
        }
        return true
    }
}
