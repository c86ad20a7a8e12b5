import Foundation
import GroceryModel

/// The state of an item list screen: Prepare (every item by home location; toggling puts an item
/// on or off the shopping list) or Shop (the listed items by aisle; toggling ticks an item as
/// collected), with a selection, a search, and the screen's Clear action.
///
/// Refreshes when the store changes, whichever process changed it.
public final class ItemListViewModel {
    public enum Screen: Sendable { case prepare, shop }

    public let device: String
    public let screen: Screen
    /// Only items whose name contains this, ignoring case and diacritics; grouping is kept.
    public var searchText = "" {
        didSet { if searchText != oldValue { binding.invalidate(); refreshIfChanged() } }
    }
    /// The dialog the screen shows now, if any.
    public private(set) var dialog: Dialog?
    public private(set) var sections: [ItemSection] = []
    /// The selected row, counted over all sections' rows.
    public private(set) var selection = 0
    /// A one-line message for the status line (the last action, or an error).
    public private(set) var message: String?

    private var binding: StoreBinding
    private var store: GroceryStore { binding.store }
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    public init(store: GroceryStore, device: String, screen: Screen = .prepare) {
        binding = StoreBinding(store)
        self.device = device
        self.screen = screen
    }

    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
    public var listedCount: Int { sections.reduce(0) { $0 + $1.rows.filter(\.item.listed).count } }

    /// The selected item, if any.
    public var selectedRow: ItemRow? {
        var index = selection
        for section in sections {
            if index < section.rows.count { return section.rows[index] }
            index -= section.rows.count
        }
        return nil
    }

    /// Refetches when the store changed since the last fetch. Returns whether it did.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        do {
            guard let token = try binding.tokenIfChanged() else { return false }
            let selectedID = selectedRow?.id
            let rows = try store.items(listedOnly: screen == .shop).filter { SearchText.matches($0.name, searchText) }
            sections = screen == .prepare ? ItemGrouping.byHomeLocation(rows) : ItemGrouping.byShopAisle(rows)
            binding.fetched(token)
            if let selectedID, let index = flatIndex(of: selectedID) { selection = index }
            selection = min(selection, max(rowCount - 1, 0))
            return true
        } catch {
            message = "Cannot read the store: \(error)"
            return false
        }
    }

    // MARK: - Store transitions

    /// `storesWillChange`: stop touching the store. The list saves each toggle as it is made,
    /// so it has nothing left to save.
    public func storeWillChange(_ message: String) {
        binding.willChange()
        self.message = message
    }

    /// `storesDidChange`: forget everything fetched from the old store, fetch from the new one.
    public func storeDidChange(to store: GroceryStore, message: String) {
        binding.didChange(to: store)
        sections = []
        selection = 0
        refreshIfChanged()
        self.message = message
    }

    /// Shows a line on the status bar ("3 changes from kitchen").
    public func show(_ message: String) {
        self.message = message
    }

    // MARK: - Input

    public func moveSelection(by delta: Int) {
        guard rowCount > 0 else { return }
        selection = min(max(selection + delta, 0), rowCount - 1)
    }

    public func moveSelection(to index: Int) {
        guard rowCount > 0 else { return }
        selection = min(max(index, 0), rowCount - 1)
    }

    /// Prepare: puts the selected item on the shopping list, or takes it off. Shop: ticks it as
    /// collected, or unticks it.
    public func toggleSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        do {
            switch screen {
            case .prepare:
                let updated = try store.setListed(row.id.description, !row.item.listed)
                message = updated.item.listed ? "Listed \(updated.name)" : "Unlisted \(updated.name)"
            case .shop:
                let updated = try store.setCollected(row.id.description, !row.item.collected)
                message = updated.item.collected ? "Collected \(updated.name)" : "Not collected: \(updated.name)"
            }
            refreshIfChanged()
        } catch {
            message = "\(error)"
        }
    }

    // MARK: - Clear

    /// The screen's Clear: Prepare asks "Clear Entire Shopping List?"; Shop removes the collected
    /// items from the list at once. Either says "Nothing to Clear", with the book's hint, when
    /// there is nothing to do.
    public func requestClear() {
        guard !isStoreChanging else { return }
        do {
            let listed = try store.items(listedOnly: true)
            switch screen {
            case .prepare:
                dialog = listed.isEmpty
                    ? .message(title: ClearMessages.nothingToClear, message: ClearMessages.prepareNothingListed)
                    : .confirm(title: ClearMessages.prepareQuestion, message: nil, action: "Clear")
            case .shop:
                if listed.isEmpty {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopEmpty)
                } else if !listed.contains(where: \.item.collected) {
                    dialog = .message(title: ClearMessages.nothingToClear, message: ClearMessages.shopNothingCollected)
                } else {
                    let count = try store.clearCollected()
                    message = "Removed \(count) collected item\(count == 1 ? "" : "s") from the list"
                    refreshIfChanged()
                }
            }
        } catch {
            message = "\(error)"
        }
    }

    /// The answer to the dialog: `true` for its action, `false` to cancel (or OK a message).
    public func answerDialog(_ accepted: Bool) {
        defer { dialog = nil }
        guard accepted, case .confirm = dialog, screen == .prepare, !isStoreChanging else { return }
        do {
            let count = try store.clearListed()
            message = "Cleared \(count) item\(count == 1 ? "" : "s") from the shopping list"
            refreshIfChanged()
        } catch {
            message = "\(error)"
        }
    }

    private func flatIndex(of id: ItemRow.ID) -> Int? {
        var offset = 0
        for section in sections {
            if let index = section.rows.firstIndex(where: { $0.id == id }) { return offset + index }
            offset += section.rows.count
        }
        return nil
    }
}
