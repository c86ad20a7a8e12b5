import Foundation
import GroceryModel
import Ubiquity

/// The item editor's state: the fields of one item as the user edits them.
///
/// It observes its object: a change that arrives (imported from another device, or made by
/// another process) updates the fields the user has not touched and keeps the ones they edited —
/// Core Data's object-trump merge policy. A delete elsewhere closes the editor with a message.
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
    /// The unit, home location or shop aisle picker, while it is open.
    public private(set) var picker: CatalogPicker?
    /// Set after choosing "new…" in a picker: the field whose new name the user types.
    public private(set) var namingNewEntry: Field?
    /// The photo's size in bytes, or `nil` without one.
    public private(set) var photoSize: Int?

    private var binding: StoreBinding
    private var store: GroceryStore { binding.store }
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    private let undo: UndoHistory

    /// Opens an item, marking it modified (as the book does).
    ///
    /// - Parameter undo: where saved edits are recorded for undo.
    public init(store: GroceryStore, id: GlobalID, undo: UndoHistory = UndoHistory()) throws {
        binding = StoreBinding(store)
        self.id = id
        self.undo = undo
        try store.markModified(id)
        refreshIfChanged()
    }

    public var isOpen: Bool { closedBecause == nil }

    /// The fields this store's model version has: the note came with version 2.
    public var fields: [Field] {
        store.modelVersion >= 2 ? Field.allCases : Field.allCases.filter { $0 != .note }
    }

    /// What the save loop of a store transition asks.
    public var hasUnsavedChanges: Bool { isOpen && !touched.isEmpty }

    public func set(_ field: Field, _ value: String) {
        guard isOpen, !isStoreChanging else { return }
        values[field] = value
        touched.insert(field)
    }

    // MARK: - Pickers

    /// The catalog each picker field chooses from.
    public static func kind(of field: Field) -> CatalogKind? {
        switch field {
        case .unit: .unit
        case .homeLocation: .home
        case .shopLocation: .shop
        default: nil
        }
    }

    /// Opens the picker of the unit, home location or shop aisle field.
    public func openPicker(for field: Field) {
        guard isOpen, !isStoreChanging, let kind = Self.kind(of: field) else { return }
        do {
            picker = CatalogPicker(field: field, entries: try store.entries(kind), current: values[field] ?? "")
        } catch {
            message = "Cannot read the \(kind.noun)s: \(ErrorText.reason(error))"
        }
    }

    public func movePicker(by delta: Int) {
        picker?.move(by: delta)
    }

    /// Takes the picker's option: "clear" empties the field, an entry fills it, "new…" asks for
    /// a name (``nameNewEntry(_:)``).
    public func choosePickedOption() {
        guard let picker else { return }
        self.picker = nil
        switch picker.selected {
        case .clear: set(picker.field, "")
        case .entry(let name): set(picker.field, name)
        case .new: namingNewEntry = picker.field
        }
    }

    public func cancelPicker() {
        picker = nil
        namingNewEntry = nil
    }

    /// The name typed after "new…": the entry is created when the item is saved. A blank name
    /// changes nothing.
    public func nameNewEntry(_ name: String) {
        guard let field = namingNewEntry else { return }
        namingNewEntry = nil
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        set(field, trimmed)
    }

    // MARK: - Photo

    /// Attaches the photo in the file at `path` (saved at once, as its own change).
    public func attachPhoto(fromFile path: String) {
        guard isOpen, !isStoreChanging else { return }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            message = "No such file: \(path)"
            return
        }
        do {
            let data = try Data(contentsOf: url)
            let row = try store.setPhoto(id, data)
            photoSize = row.photoSize
            message = "Photo attached (\(Self.byteCount(data.count)))"
            refreshIfChanged()
        } catch {
            message = "Photo not attached: \(ErrorText.reason(error))"
        }
    }

    public func removePhoto() {
        guard isOpen, !isStoreChanging, photoSize != nil else { return }
        do {
            photoSize = try store.setPhoto(id, nil).photoSize
            message = "Photo removed"
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// "Photo: 23 KB", or "No photo".
    public var photoDescription: String {
        photoSize.map { "Photo: \(Self.byteCount($0))" } ?? "No photo"
    }

    static func byteCount(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }

    // MARK: - Store transitions

    /// `storesWillChange`: the edits are saved while the old store is still there; input is off.
    public func storeWillChange() {
        if hasUnsavedChanges { save() }
        picker = nil
        namingNewEntry = nil
        binding.willChange()
    }

    /// The change announced waits (this editor could not save): editing goes on.
    public func storeChangePostponed() {
        binding.changePostponed()
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
            photoSize = row.photoSize
            return true
        } catch {
            message = "Cannot read the item: \(ErrorText.reason(error))"
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
            try undo.recording(store, ids: [id], label: { (row: ItemRow) in "Edited \(row.name)" }) {
                try store.editItem(id.description, changes)
            }
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
