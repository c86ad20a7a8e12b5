import Foundation
import StoreLifecycle

/// The list switcher (`L`): the device's named lists, the one on screen selected, and
/// "new list…", which asks for a name. Letters jump to a list as in the editor's pickers.
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
    /// What each option shows: its name, and for lists that share a name (made apart on two
    /// devices) who made each and its store, so that one name never silently means two lists.
    public let labels: [String]
    public var selection: Int
    /// The letters typed to jump to a list.
    public private(set) var typeAhead = TypeAhead()

    /// The lists, with the one whose store is `current` (the one on screen) selected.
    init(lists: [NamedList], current: String) {
        options = lists.map { .list($0) } + [.new]
        let shared = Set(Dictionary(grouping: lists, by: \.nameKey).filter { $0.value.count > 1 }.keys)
        labels = options.map { option in
            guard case .list(let list) = option, shared.contains(list.nameKey) else { return option.label }
            return "\(list.name) (\(list.createdBy.map { "by \($0), " } ?? "")store \(list.storeName))"
        }
        selection = lists.firstIndex { $0.storeName == current } ?? 0
        self.current = current
    }

    /// The store of the list on screen.
    let current: String

    public var selected: Option { options[selection] }

    /// What `+` does for the selected list, for the hint line: "merge the two "Dinner"".
    public var mergeHint: String? {
        offeredMerge.map { "merge the two \"\($0.into.name)\"" }
    }

    /// The merge `+` offers for the selected list, when it shares its name with another list:
    /// one merged into the other, the list on screen and the default list staying (else the
    /// selected list goes into the other); `nil` when it shares its name with none.
    public var offeredMerge: (from: NamedList, into: NamedList)? {
        guard case .list(let selected) = selected else { return nil }
        let others = options.compactMap { option -> NamedList? in
            guard case .list(let list) = option, list.storeName != selected.storeName, list.nameKey == selected.nameKey
            else { return nil }
            return list
        }
        guard
            let other = others.first(where: { $0.storeName == current }) ?? others.first(where: \.isDefault)
                ?? others.first
        else { return nil }
        // The list on screen stays, as does the default list.
        let keepsSelected = selected.isDefault || (selected.storeName == current && !other.isDefault)
        return keepsSelected ? (other, selected) : (selected, other)
    }

    mutating func move(by delta: Int) {
        selection = min(max(selection + delta, 0), options.count - 1)
        typeAhead.reset()
    }

    mutating func move(to index: Int) {
        selection = min(max(index, 0), options.count - 1)
        typeAhead.reset()
    }

    /// Jumps to the first list the letters typed so far spell, as the editor's pickers do
    /// (``TypeAhead``). Returns whether a list matched; the selection stays when none does.
    mutating func typeAhead(_ character: Character, now: TimeInterval) -> Bool {
        let names = options.map { if case .list(let list) = $0 { list.name } else { "" } }
        let match = typeAhead.jump(character, now: now, in: names)
        if let match { selection = match }
        return match != nil
    }

}
