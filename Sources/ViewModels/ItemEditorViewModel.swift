import Foundation
import GroceryModel
import TextAndFiles

/// The item editor's state: the fields of one item as the user edits them.
///
/// `s` saves and the editor stays; leaving with unsaved changes asks first (Save, Discard, or
/// back to editing). A value that can never be saved (a name too long, a quantity that is not a
/// number) is refused when it is typed; a save the store refuses (a name in use) keeps the edits
/// and names the field (``fieldError``). Discarding always works: nothing traps the user.
///
/// It observes its object: a change that arrives (imported from another device, or made by
/// another process) updates the fields the user has not touched and keeps the ones they edited —
/// Core Data's object-trump merge policy. A delete elsewhere closes the editor with a message.
/// Saving writes only the fields the user touched, so it never puts stale values over newer
/// ones that arrived meanwhile.
public final class ItemEditorViewModel {
    public enum Field: Hashable, Sendable, CaseIterable {
        case name, quantity, unit, homeLocation, shopLocation, note

        /// The field's name on screen and in messages.
        public var label: String {
            switch self {
            case .name: "Name"
            case .quantity: "Quantity"
            case .unit: "Unit"
            case .homeLocation: "Home location"
            case .shopLocation: "Shop aisle"
            case .note: "Note"
            }
        }
    }

    /// Why a field's value cannot be saved: "Quantity: "x" is not a number".
    public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
        public let field: Field
        public let reason: String

        public var description: String { "\(field.label): \(reason)" }
    }

    public let id: ItemID
    public private(set) var values: [Field: String] = [:]
    /// The fields the user changed since opening (or the last save).
    public private(set) var touched: Set<Field> = []
    /// Set when the item was deleted elsewhere: the screen closes with this message.
    public private(set) var closedBecause: String?
    /// The field the last save failed on, and why; cleared when that field changes or a save
    /// succeeds.
    public private(set) var fieldError: FieldError?
    /// "Unsaved changes to Milk" (Save, Discard), asked before leaving with unsaved changes.
    public private(set) var dialog: Dialog?
    /// The last message of the editor, with when it was made.
    public private(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public private(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// The unit, home location or shop aisle picker, while it is open.
    public private(set) var picker: CatalogPicker?
    /// Set after choosing "new…" in a picker: the field whose new name the user types.
    public private(set) var namingNewEntry: Field?
    /// The photo's size in bytes, or `nil` without one.
    public private(set) var photoSize: Int?

    /// The item's values in the store, as last read.
    private var stored: [Field: String] = [:]
    private var binding: StoreBinding
    private var store: GroceryStore { binding.store }
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    private let undo: UndoHistory

    /// Opens an item, marking it modified (as the book does).
    ///
    /// - Parameter undo: where saved edits are recorded for undo.
    public init(store: GroceryStore, id: ItemID, undo: UndoHistory = UndoHistory()) throws {
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

    /// Changes a field.
    ///
    /// - Throws: ``FieldError`` when the value can never be saved (the store's own rules, from
    ///   ``Validation``): the field keeps its value, the caller keeps what was typed.
    public func set(_ field: Field, _ value: String) throws {
        guard isOpen, !isStoreChanging else { return }
        try Self.check(field, value)
        values[field] = value
        touched.insert(field)
        if fieldError?.field == field { fieldError = nil }
    }

    /// Checks a value with the rules the store applies when saving. A blank name is allowed:
    /// it becomes "New Item", as in the book; a blank note, unit or location clears it.
    static func check(_ field: Field, _ value: String) throws {
        do {
            switch field {
            case .quantity:
                _ = try Validation.quantity(text: value)
            case .name, .note, .unit, .homeLocation, .shopLocation:
                guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { return }
                _ = try Validation.name(value, field: field.label.lowercased())  // the reason only is kept
            }
        } catch {
            throw FieldError(field: field, reason: reason(error))
        }
    }

    /// The store's reason without its "invalid quantity: " prefix: the field's label says that.
    static func reason(_ error: Error) -> String {
        switch error as? GroceryError {
        case .invalidName(_, let reason)?, .invalidQuantity(let reason)?: reason
        default: ErrorText.reason(error)
        }
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

    /// A letter typed in the picker: jumps to the first entry the letters typed spell. Returns
    /// whether one matched.
    @discardableResult
    public func typeAheadInPicker(_ character: Character, now: TimeInterval = Message.now) -> Bool {
        picker?.typeAhead(character, now: now) ?? false
    }

    /// `/` in the picker: the next letters type ahead, even j, k, g and q.
    public func beginTypeAheadInPicker(now: TimeInterval = Message.now) {
        picker?.beginTypeAhead(now: now)
    }

    /// Takes the picker's option: "clear" empties the field, an entry fills it, "new…" asks for
    /// a name (``nameNewEntry(_:)``).
    public func choosePickedOption() {
        guard let picker else { return }
        self.picker = nil
        switch picker.selected {
        case .clear: try? set(picker.field, "")
        case .entry(let name): try? set(picker.field, name)  // a name the store holds
        case .new: namingNewEntry = picker.field
        }
    }

    public func cancelPicker() {
        picker = nil
        namingNewEntry = nil
    }

    /// The name typed after "new…": the entry is created when the item is saved (an entry of
    /// that name already there is used). A blank name changes nothing.
    ///
    /// - Throws: ``FieldError`` for a name that can never be saved; the name is still asked for.
    public func nameNewEntry(_ name: String) throws {
        guard let field = namingNewEntry else { return }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { try set(field, trimmed) }
        namingNewEntry = nil
    }

    // MARK: - Photo

    /// Attaches the photo in the file at `path` (saved at once, as its own change).
    ///
    /// - Throws: why not (no such file, not a photo, too large): the caller keeps the path.
    public func attachPhoto(fromFile path: String) throws {
        guard isOpen, !isStoreChanging else { return }
        let data = try PhotoFile.read(path)
        photoSize = try store.setPhoto(id, data).photoSize
        message = "Photo attached (\(Self.byteCount(data.count)))"
        refreshIfChanged()
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
        dialog = nil
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
            stored = Self.fields(of: row)
            for field in Field.allCases where !touched.contains(field) { values[field] = stored[field] }
            photoSize = row.photoSize
            return true
        } catch {
            message = "Cannot read the item: \(ErrorText.reason(error))"
            return false
        }
    }

    /// Saves the touched fields. A blank name becomes "New Item", as in the book.
    ///
    /// A save the store refuses keeps the edits; ``fieldError`` names the field when it is one
    /// field's fault (a name in use).
    ///
    /// - Returns: whether nothing is left unsaved.
    @discardableResult
    public func save() -> Bool {
        guard isOpen, !isStoreChanging, !touched.isEmpty else { return !hasUnsavedChanges }
        do {
            let changes = try changes()
            try undo.recording(store, ids: [id], label: { (row: ItemRow) in "Edited \(row.name)" }) {
                try store.editItem(id.description, changes)
            }
        } catch {
            let failure = (error as? FieldError) ?? Self.fieldError(of: error)
            fieldError = failure
            message = "Not saved: \(failure.map(String.init(describing:)) ?? ErrorText.reason(error))"
            return false
        }
        touched.removeAll()
        fieldError = nil
        refreshIfChanged()
        message = "Saved \(values[.name] ?? "")"
        return true
    }

    /// The touched fields as the store's changes.
    private func changes() throws -> ItemChanges {
        var changes = ItemChanges()
        for field in touched {
            let text = values[field] ?? ""
            switch field {
            case .name: changes.name = text.trimmingCharacters(in: .whitespaces).isEmpty ? GrocerySchema.defaultItemName : text
            case .quantity:
                do { changes.quantity = try Validation.quantity(text: text) } catch { throw FieldError(field: .quantity, reason: Self.reason(error)) }
            case .unit: changes.unit = text
            case .homeLocation: changes.homeLocation = text
            case .shopLocation: changes.shopLocation = text
            case .note: changes.note = text.trimmingCharacters(in: .whitespaces).isEmpty ? "" : text
            }
        }
        return changes
    }

    /// The field a refused save is about, when it is one field's fault.
    static func fieldError(of error: Error) -> FieldError? {
        guard let refusal = error as? GroceryError else { return nil }
        let field: Field? = switch refusal {
        case .alreadyExists("item", _), .invalidName("item name", _): .name
        case .invalidQuantity: .quantity
        case .invalidName("note", _): .note
        case .invalidName(let subject, _): Field.allCases.first { kind(of: $0).map { "\($0.noun) name" } == subject }
        case .duplicates(let noun, _, _): Field.allCases.first { kind(of: $0)?.noun == noun }
        default: nil
        }
        return field.map { FieldError(field: $0, reason: reason(refusal)) }
    }

    // MARK: - Leaving

    /// `q` or Esc with unsaved changes: asks "Unsaved changes to Milk" — Save, Discard, or
    /// Esc back to editing. The app model acts on the answer.
    public func askBeforeLeaving() {
        guard hasUnsavedChanges else { return }
        let changed = Field.allCases.filter(touched.contains).map(\.label).joined(separator: ", ")
        dialog = .choice(title: "Unsaved changes to \(savedName)",
                         message: "Changed: \(changed). Esc goes back to editing.", decline: "Discard", accept: "Save")
    }

    /// The item's name as saved (the edited one may differ).
    public var savedName: String { stored[.name] ?? values[.name] ?? "the item" }

    /// The question went away (answered, or Esc).
    public func dismissDialog() {
        dialog = nil
    }

    static func fields(of row: ItemRow) -> [Field: String] {
        let quantity = QuantityFormat.exact(row.item.quantity)
        return [.name: row.name, .quantity: quantity, .unit: row.unitName ?? "", .homeLocation: row.homeLocationName ?? "",
                .shopLocation: row.shopLocationName ?? "", .note: row.item.note ?? ""]
    }
}
