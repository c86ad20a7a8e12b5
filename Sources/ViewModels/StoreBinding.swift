import Foundation
import GroceryModel

/// What every view model keeps about the store under it: the store, the change token of its
/// last fetch, and whether a store transition is under way (between `storesWillChange` and
/// `storesDidChange`: input off, nothing read).
struct StoreBinding {
    private(set) var store: GroceryStore
    private(set) var isChanging = false
    /// The store's change token at the last fetch (-1: fetch again).
    private(set) var fetchedToken: Int64 = -1
    /// Bumped whenever what was fetched stops counting (a new query, a new store): a fetch
    /// made on another thread before it is dropped when it arrives.
    private(set) var generation = 0

    init(_ store: GroceryStore) {
        self.store = store
    }

    /// The store's change token when it moved since the last fetch; `nil` when nothing
    /// changed, or while the store is changing.
    func tokenIfChanged() throws -> Int64? {
        guard !isChanging else { return nil }
        let token = try store.changeToken()
        return token == fetchedToken ? nil : token
    }

    mutating func fetched(_ token: Int64) { fetchedToken = token }

    /// The store's change token now.
    func currentToken() throws -> Int64 { try store.changeToken() }

    /// Its parts now: saves and imported batches.
    func changeCounts() -> GroceryStore.ChangeCounts? { try? store.changeCounts() }

    /// Whether `changes` are the only ones since the last fetch: the token was this fetch's
    /// just before them, and has not moved since them.
    func isOnlyChange(_ changes: StoreChanges) -> Bool {
        guard !isChanging, let before = changes.tokenBefore, let after = changes.tokenAfter,
            before == fetchedToken, before < after
        else { return false }
        return (try? currentToken()) == after
    }

    /// The next `tokenIfChanged` answers, whatever the store did (a new search, a new store).
    mutating func invalidate() {
        fetchedToken = -1
        generation += 1
    }

    mutating func willChange() { isChanging = true }

    /// The change waits: the same store stays, input comes back.
    mutating func changePostponed() { isChanging = false }

    mutating func didChange(to store: GroceryStore) {
        self.store = store
        isChanging = false
        invalidate()
    }
}
