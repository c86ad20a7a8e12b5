import Foundation
import GroceryModel

/// The state of the units, home locations or shop aisles screen: the entries with how many items
/// use each, a selection kept on the same entry across refreshes, and add, rename and delete
/// (with confirmation; items lose the link, they are not deleted).
public final class CatalogListViewModel: StoreFollowingList {
    public let kind: CatalogKind
    public private(set) var entries: [CatalogEntry] = []
    public private(set) var selection = 0
    /// The last message of this screen, with when it was made.
    public private(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public internal(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    public internal(set) var dialog: Dialog?
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    /// The Aisles screen's shop (model version 3): its aisles in its walking order, which `J`
    /// and `K` change. The other kinds ignore it.
    public var shop: ShopID = .defaultShop {
        didSet {
            guard shop != oldValue else { return }
            binding.invalidate()
            refreshIfChanged()
        }
    }
    /// The shop's name, which Aisles shows above its aisles when the list has more than one shop.
    public internal(set) var shopName: String?
    /// Whether this screen's entries are a shop's aisles in walking order (the Aisles screen of
    /// a store with shops).
    public var isWalkingOrder: Bool { kind == .shop && store.modelVersion >= 3 }

    var binding: StoreBinding
    private var store: GroceryStore { binding.store }

    public init(store: GroceryStore, kind: CatalogKind) {
        binding = StoreBinding(store)
        self.kind = kind
    }

    public var selectedEntry: CatalogEntry? { entries.indices.contains(selection) ? entries[selection] : nil }

    /// Refetches when the store changed since the last fetch. Returns whether it did.
    @discardableResult
    public func refreshIfChanged() -> Bool {
        do {
            guard let token = try binding.tokenIfChanged() else { return false }
            let selectedID = selectedEntry?.id
            entries = isWalkingOrder ? try store.aisleEntries(in: shop) : try store.entries(kind)
            fetches += 1
            binding.fetched(token)
            if let selectedID, let index = entries.firstIndex(where: { $0.id == selectedID }) { selection = index }
            selection = min(selection, max(entries.count - 1, 0))
            return true
        } catch {
            message = "Cannot read the store: \(error)"
            return false
        }
    }

    /// How many times the entries were fetched.
    public private(set) var fetches = 0

    /// Applies changes whose objects are known (an import): the entries are fetched only when
    /// the changes touch them (their own kind, or items, whose counts they show); otherwise
    /// the fetch stays current when nothing else changed since it.
    @discardableResult
    public func apply(_ changes: StoreChanges) -> Bool {
        let entities =
            isWalkingOrder
            ? [kind.entity, GrocerySchema.Entity.shopAisle, GrocerySchema.Entity.itemAisle, GrocerySchema.Entity.shop]
            : [kind.entity]
        if !entities.contains(where: changes.touches), !changes.touches(GrocerySchema.Entity.item),
            binding.isOnlyChange(changes), let after = changes.tokenAfter
        {
            binding.fetched(after)
            return false
        }
        return refreshIfChanged()
    }

    public func moveSelection(by delta: Int) {
        guard !entries.isEmpty else { return }
        selection = min(max(selection + delta, 0), entries.count - 1)
    }

    /// Adds an entry and selects it.
    ///
    /// - Throws: why the name is refused (in use, too long): the caller keeps what was typed.
    public func add(_ name: String) throws {
        guard !isStoreChanging else { return }
        let added =
            isWalkingOrder
            ? try store.addAisle(name, in: shop).id.description : try store.addEntry(kind, name: name).id.description
        refreshIfChanged()
        if let index = entries.firstIndex(where: { $0.id.description == added }) {
            selection = index
            message = "Added \(entries[index].name)"
        }
    }

    /// Renames the selected entry.
    ///
    /// - Throws: why the name is refused (in use, too long): the caller keeps what was typed.
    public func renameSelected(to name: String) throws {
        guard !isStoreChanging, let entry = selectedEntry else { return }
        let renamed =
            isWalkingOrder
            ? try store.renameAisle(entry.id.description, to: name, in: shop).name
            : try store.renameEntry(entry.id, to: name).name
        message = "Renamed \(entry.name) to \(renamed)"
        refreshIfChanged()
    }

    /// Asks first: deleting takes the entry off every item that uses it.
    public func requestDeleteSelected() {
        guard !isStoreChanging, let entry = selectedEntry else { return }
        let uses =
            entry.itemCount == 0
            ? nil
            : "\(entry.itemCount) item\(entry.itemCount == 1 ? "" : "s") will lose it; the items are kept."
        dialog = .confirm(title: "Delete \(entry.name)?", message: uses, action: "Delete")
    }

    public func answerDialog(_ accepted: Bool) {
        defer { dialog = nil }
        guard accepted, case .confirm = dialog else { return }
        perform { entry in
            guard let entry else { return nil }
            let removed =
                isWalkingOrder
                ? try store.removeAisle(entry.id.description, in: shop).name : try store.removeEntry(entry.id).name
            return "Deleted \(removed)"
        }
    }

    /// Moves the selected aisle one place up (`-1`) or down (`1`) in its shop's walking order:
    /// one position written, the moved aisle's; the selection follows it.
    public func moveSelectedAisle(by delta: Int) {
        guard isWalkingOrder, let entry = selectedEntry else { return }
        let target = selection + delta
        guard entries.indices.contains(target) else {
            message = "\(entry.name) is \(delta < 0 ? "first" : "last") already"
            return
        }
        let neighbour = entries[target].id.description
        perform { _ in
            try store.moveAisle(entry.id.description, in: shop, to: delta < 0 ? .before(neighbour) : .after(neighbour))
            return "Moved \(entry.name) \(delta < 0 ? "up" : "down")"
        }
        if let index = entries.firstIndex(where: { $0.id == entry.id }) { selection = index }
    }

    // MARK: - Store transitions (``StoreFollowingList``)

    func refetch() {
        refreshIfChanged()
    }

    func forgetWorkOnOldStore() {}

    /// Runs one change on the selected entry; its words, or the error, go to the status line.
    private func perform(_ change: (CatalogEntry?) throws -> String?) {
        guard !isStoreChanging else { return }
        do {
            if let text = try change(selectedEntry) { message = text }
            refreshIfChanged()
        } catch {
            message = "\(error)"
        }
    }
}
