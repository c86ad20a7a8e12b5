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
            entries = try store.entries(kind)
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
        if !changes.touches(kind.entity), !changes.touches(GrocerySchema.Entity.item),
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
        let added = try store.addEntry(kind, name: name)
        message = "Added \(added.name)"
        refreshIfChanged()
        if let index = entries.firstIndex(where: { $0.id == added.id }) { selection = index }
    }

    /// Renames the selected entry.
    ///
    /// - Throws: why the name is refused (in use, too long): the caller keeps what was typed.
    public func renameSelected(to name: String) throws {
        guard !isStoreChanging, let entry = selectedEntry else { return }
        let renamed = try store.renameEntry(entry.id, to: name)
        message = "Renamed \(entry.name) to \(renamed.name)"
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
            let removed = try store.removeEntry(entry.id)
            return "Deleted \(removed.name)"
        }
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
