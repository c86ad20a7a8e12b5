import Foundation
import GroceryModel
import TextAndFiles

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
        didSet {
            if searchText != oldValue {
                binding.invalidate()
                refreshIfChanged()
            }
        }
    }
    /// Prepare's order: by home location (the book's), or every item by name (`o`). Kept for the
    /// session, across store changes.
    public var order: ItemListQuery.Order = .byLocation {
        didSet { if order != oldValue { refetchKeepingSelection() } }
    }
    /// The shop whose aisles and walking order Shop shows (`s` switches; the device remembers
    /// it, ``AppModel/switchShop(by:)``).
    public var shop: ShopID = .defaultShop {
        didSet { if shop != oldValue { refetchKeepingSelection() } }
    }
    /// The shop's name, which Shop shows above the list when the list has more than one shop.
    public internal(set) var shopName: String?
    /// Who claimed which item ("I'll get it"), as background sync last read it: Shop shows the
    /// person beside the item.
    public internal(set) var claims: [ItemID: String] = [:]
    /// Prepare shows only what is on the shopping list (`f`). Kept for the session.
    public var onlyListed = false {
        didSet { if onlyListed != oldValue { refetchKeepingSelection() } }
    }
    /// The dialog the screen shows now, if any.
    public internal(set) var dialog: Dialog?
    /// The list's order: every shown item's ID, and the sections.
    public internal(set) var index = ItemListIndex()
    /// The selected row, counted over all sections' rows.
    public internal(set) var selection = 0
    /// The first line on screen (lines: each section's header, then its rows).
    public internal(set) var scrollTop = 0
    /// How many lines the screen shows.
    public internal(set) var viewportHeight = 20
    /// The last message of this screen (the last action, or an error), with when it was made.
    public internal(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public internal(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// The items whose rows on screen changed in the last refresh (the ones to redraw).
    public internal(set) var changedRows: Set<ItemID> = []
    /// Deduplication runs in the background since Prepare last appeared.
    public internal(set) var isDeduplicating = false
    /// How many rows were read from the store so far (the batches, not the index).
    public internal(set) var rowsRead = 0
    /// How many times the list's order was fetched (every item's ID: a scan of the items).
    public internal(set) var indexFetches = 0
    /// How many times known changes were applied by reading only their rows (``apply(_:)``).
    public internal(set) var inPlaceRefreshes = 0

    /// From this many items in the store on, shown or not, a change made elsewhere is fetched on
    /// another thread (``refreshIfChanged(inBackground:)``): below it a fetch takes a few
    /// milliseconds.
    public var backgroundFetchRows = 5_000
    /// From this many items in the store on, the first screen shows the first rows at once and
    /// fetches the whole order on another thread (``refreshIfChanged(inBackground:)``).
    public var firstPageFromRows = 5_000
    /// The change token a fetch on another thread is under way for.
    var fetchingToken: Int64?

    /// Rows read at a time: at least the screen and a margin above and below it.
    public var batchSize: Int { max(100, viewportHeight * 3) }

    var binding: StoreBinding
    var store: GroceryStore { binding.store }
    let mailbox: Mailbox<AppEvent>?
    let undo: UndoHistory
    /// The rows read: those of `cachedRange`, by ID.
    var cache: [ItemID: ItemRow] = [:]
    var cachedRange = 0..<0
    /// The item a delete confirmation is about.
    var pendingDelete: ItemID?

    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    /// - Parameter mailbox: where background work (deduplication) reports back to the UI thread.
    ///   - undo: where toggles, deletes and clears are recorded for undo.
    public init(
        store: GroceryStore, device: String, screen: Screen = .prepare, mailbox: Mailbox<AppEvent>? = nil,
        undo: UndoHistory = UndoHistory()
    ) {
        binding = StoreBinding(store)
        self.device = device
        self.screen = screen
        self.mailbox = mailbox
        self.undo = undo
    }

    public var query: ItemListQuery {
        ItemListQuery(
            grouping: screen == .prepare ? .homeLocation : .shopAisle, shop: screen == .shop ? shop : nil,
            order: order,
            listedOnly: screen == .shop || onlyListed, search: searchText)
    }

    /// Fetches again in a new order or with a new filter; the selected item stays selected when
    /// still shown, scrolled into view.
    func refetchKeepingSelection() {
        let selected = selectedID
        binding.invalidate()
        refreshIfChanged()
        if let selected, select(selected) { return }
        moveSelection(to: 0)
    }

    public var sections: [ItemListSection] { index.sections }
    public var rowCount: Int { index.count }
    /// How many rows the list has: ``rowCount`` but while only its first page is shown.
    public var totalRows: Int { index.total }
    /// How many of the list's items are listed; `nil` while only the first page of a list of
    /// every item is shown (it arrives with the whole order).
    public var listedCount: Int? { index.knowsListedCount ? index.listedCount : nil }
    public var lineCount: Int { index.count + index.sections.count }

    // MARK: - Rows and lines

    /// The row at a position among all rows. The rows on screen and around them are read
    /// already (``readVisibleRows()``); another is read alone, leaving them in place.
    public func row(at position: Int) -> ItemRow? {
        guard index.ids.indices.contains(position) else { return nil }
        let id = index.ids[position]
        if let row = cache[id] { return row }
        do {
            let rows = try store.itemRows([id])
            rowsRead += rows.count
            return rows[id]
        } catch {
            message = "Cannot read the store: \(ErrorText.reason(error))"
            return nil
        }
    }

    /// The selected item, if any.
    public var selectedRow: ItemRow? { row(at: selection) }
    public var selectedID: ItemID? { index.ids.indices.contains(selection) ? index.ids[selection] : nil }

    /// The line showing row `position`: the rows before it plus one header per section so far.
    public func lineOfRow(_ position: Int) -> Int {
        position + (index.section(containing: position) ?? 0) + 1
    }

    /// What line `number` shows.
    public func line(_ number: Int) -> Line? {
        // Section s's header is at line start(s) + s; its rows follow.
        var low = 0
        var high = index.sections.count - 1
        var found = -1
        while low <= high {
            let middle = (low + high) / 2
            if index.sections[middle].start + middle <= number {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        guard found >= 0 else { return nil }
        let section = index.sections[found]
        let header = section.start + found
        if number == header { return .header(section) }
        let position = section.start + (number - header - 1)
        return section.rows.contains(position) ? .row(position) : nil
    }

    /// The lines on screen, from ``scrollTop``, with their rows: what drawing reads. It reads
    /// nothing from the store: the rows on screen were read when the lines moved.
    public var visibleLines: [(line: Line, row: ItemRow?)] {
        visibleLineNumbers.compactMap { number in
            guard let line = line(number) else { return nil }
            if case .row(let position) = line { return (line, cache[index.ids[position]]) }
            return (line, nil)
        }
    }

    private var visibleLineNumbers: Range<Int> {
        scrollTop..<max(scrollTop, min(scrollTop + viewportHeight, lineCount))
    }

    /// Reads the rows on screen when they are not read yet: after every move of the lines shown
    /// (a refresh, a new selection or height). A batch is at least three screens, so one holds them.
    func readVisibleRows() {
        let positions = visibleLineNumbers.compactMap { number -> Int? in
            if case .row(let position)? = line(number) { return position }
            return nil
        }
        guard let first = positions.first, let last = positions.last,
            !(cachedRange.contains(first) && cachedRange.contains(last))
        else { return }
        readBatch(around: first)
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
}
