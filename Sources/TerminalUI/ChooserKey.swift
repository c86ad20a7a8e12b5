/// What a key does in a list to choose from — the editor's unit and location pickers and the
/// list switcher (`L`) take the same keys: arrows, j k and pages move, g G Home End go to the
/// first and last entry, Enter or Space chooses, Esc or `q` closes, `/` starts typing, other
/// letters jump to the entry they spell (``TypeAhead``). While letters are being typed, j k g G
/// q and Space are letters too.
enum ChooserKey: Equatable {
    case move(by: Int)
    case first, last, choose, cancel, startTyping
    case type(Character)

    /// - Parameters:
    ///   - page: how many entries a page moves.
    ///   - typing: whether letters are being typed (the type-ahead's window is open).
    init?(_ key: Key, page: Int, typing: Bool) {
        if case .character(let character) = key, typing, character != "/" {
            self = .type(character)
            return
        }
        switch key {
        case .up, .character("k"): self = .move(by: -1)
        case .down, .character("j"): self = .move(by: 1)
        case .pageUp: self = .move(by: -page)
        case .pageDown: self = .move(by: page)
        case .home, .character("g"): self = .first
        case .end, .character("G"): self = .last
        case .enter, .character(" "): self = .choose
        case .escape, .character("q"): self = .cancel
        case .character("/"): self = .startTyping
        case .character(let character): self = .type(character)
        default: return nil
        }
    }
}
