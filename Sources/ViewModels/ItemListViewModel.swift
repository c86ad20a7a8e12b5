import Foundation
import GroceryModel
import Ubiquity

/// The state of an item list screen: Prepare (every item by home location; toggling puts an item
/// on or off the shopping list) or Shop (the listed items by aisle; toggling ticks an item as
/// collected), with a selection, a scroll position, a search, and the screen's Clear action.
///
/// It holds the list's order (``ItemListIndex``: IDs and sections) and reads rows only for the
/// lines on screen plus a margin, a batch at a time, so 100k items cost about what 100 do. It
/// refreshes when the store changes, whichever process changed it; the selection and the scroll
/// position stay on the same item, and ``changedRows`` says which rows on screen changed.
public final class ItemListViewModel {
    public enum Screen: Sendable { case prepare, shop }

    /// One line of the list: a section's header, or the row at a position among all rows.
    public enum Line: Hashable, Sendable {
        case header(ItemListSection)
        case row(Int)
    }

    public let device: String
    public let screen: Screen
    /// Only items whose name contains this, ignoring case and diacritics; grouping is kept.
    public var searchText = "" {
        didSet { if searchText != oldValue { binding.invalidate(); refreshIfChanged() } }
    }
    /// Prepare's order: by home location (the book's), or every item by name (`o`). Kept for the
    /// session, across store changes.
    public var order: ItemListQuery.Order = .byLocation {
        didSet { if order != oldValue { refetchKeepingSelection() } }
    }
    /// Prepare shows only what is on the shopping list (`f`). Kept for the session.
    public var onlyListed = false {
        didSet { if onlyListed != oldValue { refetchKeepingSelection() } }
    }
    /// The dialog the screen shows now, if any.
    public private(set) var dialog: Dialog?
    /// The list's order: every shown item's ID, and the sections.
    public private(set) var index = ItemListIndex()
    /// The selected row, counted over all sections' rows.
    public private(set) var selection = 0
    /// The first line on screen (lines: each section's header, then its rows).
    public private(set) var scrollTop = 0
    /// How many lines the screen shows.
    public private(set) var viewportHeight = 20
    /// The last message of this screen (the last action, or an error), with when it was made.
    public private(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public private(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// The items whose rows on screen changed in the last refresh (the ones to redraw).
    public private(set) var changedRows: Set<GlobalID> = []
    /// Deduplication runs in the background since Prepare last appeared.
    public private(set) var isDeduplicating = false
    /// How many rows were read from the store so far (the batches, not the index).
    public private(set) var rowsRead = 0

    /// Rows read at a time: at least the screen and a margin above and below it.
    public var batchSize: Int { max(100, viewportHeight * 3) }

    private var binding: StoreBinding
    private var store: GroceryStore { binding.store }
    private let mailbox: Mailbox<AppEvent>?
    private let undo: UndoHistory
    /// The rows read: those of `cachedRange`, by ID.
    private var cache: [GlobalID: ItemRow] = [:]
    private var cachedRange = 0..<0
    /// The item a delete confirmation is about.
    private var pendingDelete: GlobalID?

    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    /// - Parameter mailbox: where background work (deduplication) reports back to the UI thread.
    ///   - undo: where toggles, deletes and clears are recorded for undo.
    public init(store: GroceryStore, device: String, screen: Screen = .prepare, mailbox: Mailbox<AppEvent>? = nil,
                undo: UndoHistory = UndoHistory()) {
        binding = StoreBinding(store)
        self.device = device
        self.screen = screen
        self.mailbox = mailbox
        self.undo = undo
    }

    public var query: ItemListQuery {
        ItemListQuery(grouping: screen == .prepare ? .homeLocation : .shopAisle, order: order,
                      listedOnly: screen == .shop || onlyListed, search: searchText)
    }

    /// Fetches again in a new order or with a new filter; the selected item stays selected when
    /// still shown, scrolled into view.
    private func refetchKeepingSelection() {
        let selected = selectedID
        binding.invalidate()
        refreshIfChanged()
        if let selected, select(selected) { return }
        moveSelection(to: 0)
    }

    public var sections: [ItemListSection] { index.sections }
    public var rowCount: Int { index.count }
    public var listedCount: Int { index.listedCount }
    public var lineCount: Int { index.count + index.sections.count }

    // MARK: - Rows and lines

    /// The row at a position among all rows, read with its batch when not read yet.
    public func row(at position: Int) -> ItemRow? {
        guard index.ids.indices.contains(position) else { return nil }
        if !cachedRange.contains(position) { readBatch(around: position) }
        return cache[index.ids[position]]
    }

    /// The selected item, if any.
    public var selectedRow: ItemRow? { row(at: selection) }
    public var selectedID: GlobalID? { index.ids.indices.contains(selection) ? index.ids[selection] : nil }

    /// The line showing row `position`: the rows before it plus one header per section so far.
    public func lineOfRow(_ position: Int) -> Int {
        position + (index.section(containing: position) ?? 0) + 1
    }

    /// What line `number` shows.
    public func line(_ number: Int) -> Line? {
        // Section s's header is at line start(s) + s; its rows follow.
        var low = 0, high = index.sections.count - 1, found = -1
        while low <= high {
            let middle = (low + high) / 2
            if index.sections[middle].start + middle <= number { found = middle; low = middle + 1 } else { high = middle - 1 }
        }
        guard found >= 0 else { return nil }
        let section = index.sections[found]
        let header = section.start + found
        if number == header { return .header(section) }
        let position = section.start + (number - header - 1)
        return section.rows.contains(position) ? .row(position) : nil
    }

    /// The lines on screen, from ``scrollTop``, with their rows.
    public var visibleLines: [(line: Line, row: ItemRow?)] {
        (scrollTop..<min(scrollTop + viewportHeight, lineCount)).compactMap { number in
            guard let line = line(number) else { return nil }
            if case .row(let position) = line { return (line, row(at: position)) }
            return (line, nil)
        }
    }

    private func readBatch(around position: Int) {
        let start = max(0, min(position - batchSize / 3, index.count - batchSize))
        let range = start..<min(index.count, start + batchSize)
        do {
            cache = try store.itemRows(index.ids[range])
            cachedRange = range
            rowsRead += cache.count
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
        }
    }

    // MARK: - Refreshing

    /// Refetches when the store changed since the last fetch: the order, then the rows on screen.
    /// The selection stays on its item, at the same height on screen. Returns whether it did.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        let token: Int64
        do {
            guard let changed = try binding.tokenIfChanged() else { return false }
            token = changed
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
            return false
        }
        let shown = visibleLines.compactMap(\.row)
        let before = Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let selectedID = selectedID
        let selectionHeight = lineOfRow(selection) - scrollTop
        let topID = shown.first?.id
        do {
            index = try store.itemIndex(query)
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
            return false
        }
        binding.fetched(token)
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
        return true
    }

    /// The screen's height changed.
    public func setViewport(height: Int) {
        guard height != viewportHeight, height > 0 else { return }
        viewportHeight = height
        keepSelectionVisible()
    }

    /// Scrolls as little as possible to show the selection, with its section's header when the
    /// selection is a section's first row.
    private func keepSelectionVisible() {
        let maxTop = max(0, lineCount - viewportHeight)
        guard rowCount > 0 else { scrollTop = 0; return }
        let line = lineOfRow(selection)
        let wanted = index.section(containing: selection).map { index.sections[$0].start == selection } == true ? line - 1 : line
        if wanted < scrollTop { scrollTop = wanted }
        if line >= scrollTop + viewportHeight { scrollTop = line - viewportHeight + 1 }
        scrollTop = min(max(scrollTop, 0), maxTop)
    }

    // MARK: - Appearing

    /// The screen appears. Prepare runs deduplication in the background (cheap when nothing
    /// changed) and refreshes when it reports back through the mailbox (``handle(_:)``).
    public func appear() {
        refreshIfChanged()
        guard screen == .prepare, !isDeduplicating, !isStoreChanging, let mailbox else { return }
        isDeduplicating = true
        let objects = store.objects
        Thread.detachNewThread {
            do {
                let report = try Deduplicator(store: objects).run()
                mailbox.post(.deduplicated(merged: report.mergedCount))
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

    /// `storesWillChange`: stop touching the store. The list saves each toggle as it is made,
    /// so it has nothing left to save; it keeps only IDs, never a row to write back.
    public func storeWillChange(_ message: String) {
        binding.willChange()
        dialog = nil
        self.message = message
    }

    /// The change announced waits: the list goes on with its store.
    public func storeChangePostponed() {
        binding.changePostponed()
    }

    /// `storesDidChange`: forget everything read from the old store, fetch from the new one;
    /// the selection stays on its item when the new store has it.
    public func storeDidChange(to store: GroceryStore, message: String) {
        binding.didChange(to: store)
        isDeduplicating = false
        refreshIfChanged()
        self.message = message
    }

    // MARK: - Input

    public func moveSelection(by delta: Int) {
        moveSelection(to: selection + delta)
    }

    public func moveSelection(to position: Int) {
        guard rowCount > 0 else { return }
        selection = min(max(position, 0), rowCount - 1)
        keepSelectionVisible()
    }

    /// Selects an item by ID, if the list shows it.
    @discardableResult
    public func select(_ id: GlobalID) -> Bool {
        guard let position = index.ids.firstIndex(of: id) else { return false }
        moveSelection(to: position)
        return true
    }

    /// Prepare: puts the selected item on the shopping list, or takes it off. Shop: ticks it as
    /// collected, or unticks it.
    public func toggleSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        do {
            message = try undo.recording(store, ids: [row.id], label: { $0 }) {
                switch screen {
                case .prepare:
                    let updated = try store.setListed(row.id.description, !row.item.listed)
                    return updated.item.listed ? "Listed \(updated.name)" : "Unlisted \(updated.name)"
                case .shop:
                    let updated = try store.setCollected(row.id.description, !row.item.collected)
                    return updated.item.collected ? "Collected \(updated.name)" : "Not collected: \(updated.name)"
                }
            }
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// Changes the selected item's quantity by `delta` (`+` and `-`), never below 0; undoable.
    public func changeQuantity(by delta: Double) {
        guard !isStoreChanging, let row = selectedRow else { return }
        let quantity = max(0, row.item.quantity + delta)
        guard quantity != row.item.quantity else {
            message = "\(row.name): the quantity is already 0"
            return
        }
        do {
            message = try undo.recording(store, ids: [row.id], label: { $0 }) {
                var changes = ItemChanges()
                changes.quantity = quantity
                let updated = try store.editItem(row.id.description, changes)
                return "\(updated.name): \(QuantityFormat.exact(updated.item.quantity))"
            }
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// Adds an item, on the shopping list (Model 9's default, as `item add` does), with no home
    /// location or aisle until the user picks one (`e`), and selects it.
    ///
    /// - Throws: why the name is refused (too long, in use): the caller keeps what was typed.
    /// - Returns: the new item, or `nil` while the store changes.
    @discardableResult
    public func addItem(named name: String) throws -> GlobalID? {
        guard !isStoreChanging else { return nil }
        let added = try store.addItem(ItemDraft(name: name))  // listed, no locations
        message = "Added \(added.name)"
        refreshIfChanged()
        select(added.id)
        return added.id
    }

    /// Asks before deleting the selected item.
    public func requestDeleteSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        dialog = .confirm(title: "Delete \(row.name)?", message: nil, action: "Delete")
        pendingDelete = row.id
    }

    // MARK: - Clear

    /// The screen's Clear: Prepare asks "Clear Entire Shopping List?"; Shop removes the collected
    /// items from the list at once. Either says "Nothing to Clear", with the book's hint, when
    /// there is nothing to do.
    public func requestClear() {
        guard !isStoreChanging else { return }
        do {
            let counts = try store.shoppingListCounts()
            switch screen {
            case .prepare:
                dialog = counts.listed == 0
                    ? .message(title: ClearMessages.nothingToClear, message: ClearMessages.prepareNothingListed)
                    : .confirm(title: ClearMessages.prepareQuestion, message: nil, action: "Clear")
            case .shop:
                if counts.listed == 0 {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopEmpty)
                } else if counts.collected == 0 {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopNothingCollected)
                } else {
                    message = try undo.recording(store, ids: try store.shoppingListIDs(collectedOnly: true), label: { $0 }) {
                        let count = try store.clearCollected()
                        return "Removed \(count) collected item\(count == 1 ? "" : "s") from the list"
                    }
                    refreshIfChanged()
                }
            }
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// The answer to the dialog: `true` for its action, `false` to cancel (or OK a message).
    public func answerDialog(_ accepted: Bool) {
        let deleting = pendingDelete
        defer { dialog = nil; pendingDelete = nil }
        guard accepted, case .confirm = dialog, !isStoreChanging else { return }
        do {
            if let deleting {
                message = try undo.recording(store, ids: [deleting], withPhotos: true, label: { $0 }) {
                    "Deleted \(try store.removeItem(deleting.description).name)"
                }
            } else if screen == .prepare {
                message = try undo.recording(store, ids: try store.shoppingListIDs(), label: { $0 }) {
                    let count = try store.clearListed()
                    return "Cleared \(count) item\(count == 1 ? "" : "s") from the shopping list"
                }
            }
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }
}
