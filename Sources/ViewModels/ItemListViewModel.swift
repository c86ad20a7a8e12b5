import Foundation
import GroceryModel

/// The state of the simple full-screen list (until the full screens arrive): every item by home
/// location, a selection, and the one action of toggling an item on or off the shopping list.
///
/// Refreshes when the store changes, whichever process changed it.
public final class ItemListViewModel {
    public let device: String
    public private(set) var sections: [ItemSection] = []
    /// The selected row, counted over all sections' rows.
    public private(set) var selection = 0
    /// A one-line message for the status line (the last action, or an error).
    public private(set) var message: String?

    private var store: GroceryStore
    private var changeToken: Int64 = -1
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public private(set) var isStoreChanging = false

    public init(store: GroceryStore, device: String) {
        self.store = store
        self.device = device
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
        guard !isStoreChanging else { return false }
        do {
            let token = try store.objects.changeToken()
            guard token != changeToken else { return false }
            let selectedID = selectedRow?.id
            sections = ItemGrouping.byHomeLocation(try store.items())
            changeToken = token
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
        isStoreChanging = true
        self.message = message
    }

    /// `storesDidChange`: forget everything fetched from the old store, fetch from the new one.
    public func storeDidChange(to store: GroceryStore, message: String) {
        self.store = store
        sections = []
        selection = 0
        changeToken = -1
        isStoreChanging = false
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

    /// Puts the selected item on the shopping list, or takes it off.
    public func toggleSelected() {
        guard !isStoreChanging, let row = selectedRow else { return }
        do {
            let updated = try store.setListed(row.id.description, !row.item.listed)
            message = updated.item.listed ? "Listed \(updated.name)" : "Unlisted \(updated.name)"
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
