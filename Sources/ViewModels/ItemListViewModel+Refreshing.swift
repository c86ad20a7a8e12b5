import Foundation
import GroceryModel
import TextAndFiles

/// Fetching again when the store changed, and the store's transitions.
extension ItemListViewModel {
    /// Refetches when the store changed since the last fetch: the order, then the rows on screen.
    /// The selection stays on its item, at the same height on screen. Returns whether it did.
    ///
    /// - Parameter inBackground: for a change the user did not make here (another process, an
    ///   import): a list over a store of ``backgroundFetchRows`` items or more (a fetch scans
    ///   them all, shown or not) fetches its order on another thread and keeps showing what it
    ///   has until the order arrives through the mailbox (``receive(_:)``), so the UI thread
    ///   never waits for a scan of every item.
    @discardableResult
    public func refreshIfChanged(inBackground: Bool = false) -> Bool {
        let token: Int64
        do {
            guard let changed = try binding.tokenIfChanged() else { return false }
            token = changed
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
            return false
        }
        if inBackground, let mailbox, index.itemsInStore >= backgroundFetchRows {
            fetchInBackground(token, mailbox)
            return false
        }
        if index.count == 0, index.itemsInStore == 0, showFirstPage(token) { return true }
        let fetched: ItemListIndex
        do {
            fetched = try store.itemIndex(query)
            indexFetches += 1
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
            return false
        }
        adopt(fetched, token: token)
        return true
    }

    /// A list that has shown no order yet (its first screen, or the first after a new store) over
    /// a store of ``firstPageFromRows`` items or more: shows the first rows at once (``GroceryStore/itemIndexFirstPage(_:rows:)``)
    /// and fetches the whole order on another thread, shown when it arrives through the mailbox.
    /// Returns whether it did; a list it cannot cut short is fetched whole, as before.
    private func showFirstPage(_ token: Int64) -> Bool {
        guard let mailbox, fetchingToken == nil,
            let page = try? store.itemIndexFirstPage(query, rows: Self.firstPageRows),
            page.itemsInStore >= firstPageFromRows
        else { return false }
        adopt(page, token: nil)
        fetchInBackground(token, mailbox)
        return true
    }

    /// The rows of a first page: more than any terminal shows.
    static let firstPageRows = 300

    /// Shows a newly fetched order, the selection kept on its item at the same height on screen,
    /// and notes which rows on screen changed. `token` is the store's that the order is whole
    /// for; `nil` for a first page, after which the whole order is still wanted.
    func adopt(_ fetched: ItemListIndex, token: Int64?) {
        let shown = visibleLines.compactMap(\.row)
        let before = Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let selectedID = selectedID
        let selectionHeight = lineOfRow(selection) - scrollTop
        let topID = shown.first?.id
        let replaced = index
        index = fetched
        Self.release(replaced)
        if let token { binding.fetched(token) }
        cache = [:]
        cachedRange = 0..<0
        if let selectedID, let position = index.ids.firstIndex(of: selectedID) {
            selection = position
            scrollTop = lineOfRow(position) - selectionHeight
        } else {
            selection = min(selection, max(rowCount - 1, 0))
            if let topID, let position = index.ids.firstIndex(of: topID) { scrollTop = lineOfRow(position) - 1 }
        }
        keepSelectionVisible()
        let after = visibleLines.compactMap(\.row)
        changedRows = Set(after.filter { before[$0.id] != $0 }.map(\.id))
    }

    /// Lets go of an order on another thread: the last reference to 100k IDs takes tens of
    /// milliseconds to free, which the UI thread need not wait for. Then the memory freed goes
    /// back to the system: freed on a thread other than the one that made it, it would stay in
    /// that thread's heap.
    static func release(_ replaced: ItemListIndex) {
        guard replaced.count >= 5_000 else { return }  // a few IDs free at once
        DispatchQueue.global(qos: .utility).async {
            withExtendedLifetime(replaced) {}
            #if os(Linux)
                _ = mallocTrim(0)
            #endif
        }
    }

    // MARK: - Appearing

    /// The screen appears. Prepare runs deduplication in the background (cheap when nothing
    /// changed) and refreshes when it reports back through the mailbox (``handle(_:)``).
    public func appear() {
        refreshIfChanged()
        guard screen == .prepare, !isDeduplicating, !isStoreChanging, let mailbox else { return }
        isDeduplicating = true
        let store = store
        Thread.detachNewThread {
            do {
                mailbox.post(.deduplicated(merged: try store.mergeDuplicates().mergedCount))
            } catch {
                // The store may have gone away in a transition; the next appearance tries again.
                mailbox.post(.deduplicationFailed(ErrorText.reason(error)))
            }
        }
    }

    /// Applies what background work reported, on the UI thread.
    public func handle(_ event: AppEvent) {
        switch event {
        case .deduplicated(let merged):
            isDeduplicating = false
            refreshIfChanged()
            if merged > 0 { message = event.message }
        case .deduplicationFailed:
            isDeduplicating = false
            message = event.message
        default:
            break
        }
    }

    // MARK: - Store transitions

    /// After a new store (``StoreFollowingList``): a deduplication of the old store is over for
    /// this list; the selection stays on its item when the new store has it.
    func forgetWorkOnOldStore() {
        isDeduplicating = false
    }

    func refetch() {
        refreshIfChanged()
    }
}

extension ItemListViewModel: StoreFollowingList {}

#if os(Linux)
    /// glibc's `malloc_trim`: gives the heaps' free memory back to the system (`malloc.h`, which
    /// the Glibc module does not bring).
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#endif
