import Foundation
import GroceryModel

/// The picker of the item editor's unit, home location and shop aisle: "clear", the entries by
/// name, and "new…", which asks for a name (created when the item is saved).
public struct CatalogPicker: Equatable, Sendable {
    public enum Option: Equatable, Sendable {
        /// Takes the link off the item.
        case clear
        case entry(String)
        /// Asks for a new name.
        case new

        public var label: String {
            switch self {
            case .clear: "(clear)"
            case .entry(let name): name
            case .new: "new…"
            }
        }
    }

    public let field: ItemEditorViewModel.Field
    public let options: [Option]
    public var selection: Int

    /// The options for `kind`, with the entry named `current` selected (or "clear" without one).
    init(field: ItemEditorViewModel.Field, entries: [CatalogEntry], current: String) {
        self.field = field
        options = [.clear] + entries.map { .entry($0.name) } + [.new]
        selection = options.firstIndex(of: .entry(current)) ?? 0
    }

    public var selected: Option { options[selection] }

    mutating func move(by delta: Int) {
        selection = min(max(selection + delta, 0), options.count - 1)
    }
}
