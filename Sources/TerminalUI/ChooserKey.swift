/// What a key does in a list to choose from — the editor's unit and location pickers and the
/// list switcher (`L`) take the same keys: every character jumps to the entry the characters
/// typed spell (``TypeAhead``), arrows, PgUp/PgDn and Home/End move, Enter chooses, Esc closes.
/// No letter is a key of its own there: a unit beginning with j, k, g or q is found like any.
enum ChooserKey: Equatable {
    case move(by: Int)
    case first, last, choose, cancel
    case type(Character)

    /// Every character jumps (j, k, g and q too: "kg" finds the unit kg); arrows, PgUp/PgDn and
    /// Home/End move; Enter picks; Esc (or F10) closes.
    ///
    /// - Parameter page: how many entries a page moves.
    init?(_ key: Key, page: Int) {
        switch key {
        case .up: self = .move(by: -1)
        case .down: self = .move(by: 1)
        case .pageUp: self = .move(by: -page)
        case .pageDown: self = .move(by: page)
        case .home: self = .first
        case .end: self = .last
        case .enter: self = .choose
        case .escape, .function(10): self = .cancel
        case .character(let character): self = .type(character)
        default: return nil
        }
    }
}
