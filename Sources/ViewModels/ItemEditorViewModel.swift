import Foundation
import GroceryModel
import Ubiquity

/// The item editor's state: the fields of one item as the user edits them.
///
/// It observes its object: a change that arrives (imported from another device, or made by
/// another process) updates the fields the user has not touched and keeps the ones they edited —
/// the seeds' object-trump merge policy. A delete elsewhere closes the editor with a message.
/// Saving writes only the fields the user touched, so it never puts stale values over newer
/// ones that arrived meanwhile.
public final class ItemEditorViewModel {
    public enum Field: Hashable, Sendable, CaseIterable { case name, quantity, unit, homeLocation, shopLocation, note }

    public let id: GlobalID
    public private(set) var values: [Field: String] = [:]
    /// The fields the user changed since opening (or the last save).
    public private(set) var touched: Set<Field> = []
    /// Set when the item was deleted elsewhere: the screen closes with this message.
    public private(set) var closedBecause: String?
    public private(set) var message: String?

    private var binding: StoreBinding
    private var store: GroceryStore { binding.store }
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    /// Opens an item, marking it modified (as the book does).
    public init(store: GroceryStore, id: GlobalID) throws {
        binding = StoreBinding(store)
        self.id = id
        try store.markModified(id)
        refreshIfChanged()
    }

    public var isOpen: Bool { closedBecause == nil }

    /// What the save loop of a store transition asks.
    public var hasUnsavedChanges: Bool { isOpen && !touched.isEmpty }

    public func set(_ field: Field, _ value: String) {
        guard isOpen, !isStoreChanging else { return }
        values[field] = value
        touched.insert(field)
    }

    // MARK: - Store transitions

    /// `storesWillChange`: the edits are saved while the old store is still there; input is off.
    public func storeWillChange() {
        if hasUnsavedChanges { save() }
        binding.willChange()
    }

    /// `storesDidChange`: the item is looked up by its global ID in the new store; without it
    /// there, the editor closes.
    public func storeDidChange(to store: GroceryStore) {
        binding.didChange(to: store)
        if (try? store.item(id: id)) == nil {
            closedBecause = "\(values[.name] ?? "The item") is not in this store"
            return
        }
        refreshIfChanged()
    }

    /// Takes in what changed in the store: untouched fields follow it, touched ones stay.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        guard isOpen, let token = try? binding.tokenIfChanged() else { return false }
        binding.fetched(token)
        do {
            guard let row = try store.item(id: id) else {
                closedBecause = "\(values[.name] ?? "The item") was deleted on another device"
                return true
            }
            let current = Self.fields(of: row)
            for field in Field.allCases where !touched.contains(field) { values[field] = current[field] }
            return true
        } catch {
            message = "Cannot read the item: \(error)"
            return false
        }
    }

    /// Saves the touched fields. A blank name becomes "New Item", as in the book.
    public func save() {
        guard isOpen, !isStoreChanging, !touched.isEmpty else { return }
        var changes = ItemChanges()
        for field in touched {
            let text = values[field] ?? ""
            switch field {
            case .name:
                let name = text.trimmingCharacters(in: .whitespaces).isEmpty ? GrocerySchema.defaultItemName : text
                changes.name = name
                values[.name] = name
            case .quantity:
                guard let quantity = Double(text.trimmingCharacters(in: .whitespaces)) else {
                    message = "invalid quantity: \(text.debugDescription) is not a number"
                    return
                }
                changes.quantity = quantity
            case .unit: changes.unit = text
            case .homeLocation: changes.homeLocation = text
            case .shopLocation: changes.shopLocation = text
            case .note: changes.note = text
            }
        }
        do {
            try store.editItem(id.description, changes)
            touched.removeAll()
            message = "Saved"
            refreshIfChanged()
        } catch {
            message = "\(error)"
        }
    }

    static func fields(of row: ItemRow) -> [Field: String] {
        let quantity = row.item.quantity == row.item.quantity.rounded() ? String(Int64(row.item.quantity)) : String(row.item.quantity)
        return [.name: row.name, .quantity: quantity, .unit: row.unitName ?? "", .homeLocation: row.homeLocationName ?? "",
                .shopLocation: row.shopLocationName ?? "", .note: row.item.note ?? ""]
    }
}
