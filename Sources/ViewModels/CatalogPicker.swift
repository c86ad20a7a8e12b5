import Foundation
import GroceryModel

/// The picker of the item editor's unit, home location and shop aisle: "clear", the entries by
/// name, and "new…", which asks for a name (created when the item is saved). Typing letters
/// jumps to the first entry they spell (``TypeAhead``).
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
    /// The letters typed to jump to an entry.
    public private(set) var typeAhead = TypeAhead()

    /// The options for `kind`, with the entry named `current` selected (or "clear" without one).
    init(field: ItemEditorViewModel.Field, entries: [CatalogEntry], current: String) {
        self.field = field
        options = [.clear] + entries.map { .entry($0.name) } + [.new]
        selection = options.firstIndex(of: .entry(current)) ?? 0
    }

    public var selected: Option { options[selection] }

    mutating func move(by delta: Int) {
        selection = min(max(selection + delta, 0), options.count - 1)
        typeAhead.reset()
    }

    /// Jumps to the first entry the letters typed so far spell (the letter starting anew when
    /// nothing matches with the earlier ones). Returns whether an entry matched; the selection
    /// stays where it was when none does.
    mutating func typeAhead(_ character: Character, now: TimeInterval) -> Bool {
        let names = options.map { if case .entry(let name) = $0 { name } else { "" } }
        let match = typeAhead.jump(character, now: now, in: names)
        if let match { selection = match }
        return match != nil
    }

    /// `/`: the next letters type ahead even when they are keys of their own.
    mutating func beginTypeAhead(now: TimeInterval) {
        typeAhead.begin(now: now)
    }
}
