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
    /// The shop whose aisle the aisle field edits: the one Shop shows (the default shop's is
    /// the item's shop aisle, the book's field), named when the list has several shops.
    public let shop: ShopID
    public let shopName: String?
    public internal(set) var values: [Field: String] = [:]
    /// The fields the user changed since opening (or the last save).
    public internal(set) var touched: Set<Field> = []
    /// Set when the item was deleted elsewhere: the screen closes with this message.
    public internal(set) var closedBecause: String?
    /// The field the last save failed on, and why; cleared when that field changes or a save
    /// succeeds.
    public internal(set) var fieldError: FieldError?
    /// "Unsaved changes to Milk" (Save, Discard), asked before leaving with unsaved changes.
    public internal(set) var dialog: Dialog?
    /// The last message of the editor, with when it was made.
    public internal(set) var latestMessage: Message?
    /// Its words; setting them makes a new message, stamped now.
    public internal(set) var message: String? {
        get { latestMessage?.text }
        set { latestMessage = newValue.map { Message($0) } }
    }
    /// The unit, home location or shop aisle picker, while it is open.
    public internal(set) var picker: CatalogPicker?
    /// Set after choosing "new…" in a picker: the field whose new name the user types.
    public internal(set) var namingNewEntry: Field?
    /// The stored photo's size in bytes, or `nil` without one.
    public internal(set) var photoSize: Int?
    /// A field the user is editing that another device changed meanwhile: its value there,
    /// who set it and when. Shown at the field; `s` then asks whether to keep the user's value
    /// or take theirs, so that nothing is overwritten unseen.
    public struct RemoteChange: Equatable, Sendable {
        public let value: String
        /// The devices of the import that brought it; "another device" until the app's import
        /// message names them (``noteImport(by:changedThisItem:)``).
        public internal(set) var by: String
        public let at: Date

        /// "phone set 2 at 18:02".
        public var summary: String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "HH:mm"
            return "\(by) set \(value.isEmpty ? "(none)" : value) at \(formatter.string(from: at))"
        }
    }

    /// The item's history on this device (``readHistory()``), read with the item.
    public internal(set) var history: ItemHistory? {
        didSet { authorsShown = nil }
    }
    /// The item as it was when ``history`` was read.
    var historyRead: Item?
    /// ``authors(now:)``'s line as last made, and the day it was made for: drawn every frame,
    /// made again only when the history is read again or the day changes.
    var authorsShown: (day: Date, line: String?)?
    /// The touched fields another device changed since they were touched.
    public internal(set) var remoteChanges: [Field: RemoteChange] = [:]
    /// The fields of ``remoteChanges`` seen before the import message that names who made them.
    var unattributed: Set<Field> = []
    /// Whether ``dialog`` asks about ``remoteChanges`` before saving (and whether leaving follows).
    public internal(set) var askingAboutRemoteChanges: (leaving: Bool, asked: Bool) = (false, false)
    /// A photo attached or removed, waiting for the save (``PhotoChange``).
    public internal(set) var photoChange: PhotoChange?
    /// Whether ``dialog`` asks "Remove the Photo?".
    public internal(set) var askingToRemovePhoto = false

    /// The item's values in the store, as last read.
    var stored: [Field: String] = [:]
    var binding: StoreBinding
    var store: GroceryStore { binding.store }
    /// Between a store's will-change and did-change notices: input is off, nothing is read.
    public var isStoreChanging: Bool { binding.isChanging }

    let undo: UndoHistory

    /// Opens an item, marking it modified (as the book does).
    ///
    /// - Parameter undo: where saved edits are recorded for undo.
    public init(
        store: GroceryStore, id: ItemID, undo: UndoHistory = UndoHistory(), shop: ShopID = .defaultShop,
        shopName: String? = nil
    ) throws {
        binding = StoreBinding(store)
        self.id = id
        self.undo = undo
        self.shop = shop
        self.shopName = shopName
        try store.markModified(id)
        refreshIfChanged()
    }

    public var isOpen: Bool { closedBecause == nil }

    /// A field's label: the aisle field names its shop when the list has several ("Aldi aisle").
    public func label(of field: Field) -> String {
        guard field == .shopLocation, let shopName else { return field.label }
        return "\(shopName) aisle"
    }

    /// Whether the aisle field is another shop's than the default (an `ItemAisle`, not the
    /// item's shop aisle).
    var editsAnotherShop: Bool { shop != .defaultShop }

    /// The fields this store's model version has: the note came with version 2.
    public var fields: [Field] {
        store.modelVersion >= 2 ? Field.allCases : Field.allCases.filter { $0 != .note }
    }

    /// What the save loop of a store transition asks.
    public var hasUnsavedChanges: Bool { isOpen && (!touched.isEmpty || photoChange != nil) }

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
}
