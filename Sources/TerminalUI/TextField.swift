import Foundation

/// A one-line text field edited in place: Left/Right, Home/End and Ctrl-A/Ctrl-E move,
/// Backspace and Delete erase, Ctrl-K cuts to the end, Ctrl-W the word before the cursor,
/// Ctrl-U the whole line.
public struct TextField: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// The cursor, between characters: 0 is before the first.
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Applies an editing key. Returns whether the key was one.
    @discardableResult
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let character) where !character.isNewline:
            // Keys arrive one code point at a time: a combining accent, a zero-width joiner or the
            // second half of a flag joins the character before it, as the text will show it.
            let before = Array(String(characters[..<cursor]) + String(character))
            characters = before + characters[cursor...]
            cursor = before.count
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace, .control("h"):
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("k"):
            characters.removeSubrange(cursor...)
        case .control("u"):
            characters.removeAll()
            cursor = 0
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }
}
