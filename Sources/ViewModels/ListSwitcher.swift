import Foundation
import StoreLifecycle
import Ubiquity

/// The list switcher (`L`): the device's named lists, the one on screen selected, and
/// "new list…", which asks for a name. Type-ahead jumps to the first list whose name starts
/// with what was typed (case and accents aside).
public struct ListSwitcher: Equatable, Sendable {
    public enum Option: Equatable, Sendable {
        case list(NamedList)
        case new

        public var label: String {
            switch self {
            case .list(let list): list.name
            case .new: "new list…"
            }
        }
    }

    public let options: [Option]
    public var selection: Int
    /// The store name of the list on screen.
    public let current: String
    /// What was typed to jump (cleared by a move).
    public private(set) var typed = ""

    init(lists: [NamedList], current: String) {
        self.current = current
        options = lists.map { .list($0) } + [.new]
        selection = lists.firstIndex { $0.storeName == current } ?? 0
    }

    public var selected: Option { options[selection] }

    mutating func move(by delta: Int) {
        selection = min(max(selection + delta, 0), options.count - 1)
        typed = ""
    }

    mutating func move(to index: Int) {
        selection = min(max(index, 0), options.count - 1)
        typed = ""
    }

    /// Jumps to the first list whose folded name starts with everything typed so far; a
    /// character that matches nothing starts the search again from itself.
    mutating func typeAhead(_ character: Character) {
        for attempt in [typed + String(character), String(character)] {
            let prefix = TextFolding.fold(attempt)
            if let index = options.firstIndex(where: { option in
                if case .list(let list) = option { return TextFolding.fold(list.name).hasPrefix(prefix) }
                return false
            }) {
                typed = attempt
                selection = index
                return
            }
        }
    }
}
