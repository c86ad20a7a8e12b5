import Foundation

/// A one-line text field edited in place, as readline edits: Left/Right, Home/End and
/// Ctrl-A/Ctrl-E move, Alt-B/Alt-F a word back and forward; Backspace and Delete erase, Ctrl-K
/// cuts to the end, Ctrl-W the word before the cursor up to a space, Alt-Backspace and Alt-D the
/// word (letters and digits) before and after it,
/// Ctrl-U the whole line. A paste is text: its line ends become spaces. Every other Alt key is
/// taken and does nothing, so that none reaches the screen behind the field.
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
            // The word up to the space before it, as readline's unix-word-rubout.
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case Key.altBackspace:
            let start = wordStart(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .alt("b"), .alt("B"): cursor = wordStart(before: cursor)
        case .alt("f"), .alt("F"): cursor = wordEnd(after: cursor)
        case .alt("d"), .alt("D"): characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .alt: break
        case .paste(let text):
            // One line: line ends and tabs become spaces, other control characters go.
            let line = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
                .replacingOccurrences(of: "\t", with: " ").filter {
                    !$0.unicodeScalars.allSatisfy { CharacterSet.controlCharacters.contains($0) }
                }
            let before = Array(String(characters[..<cursor]) + line)
            characters = before + characters[cursor...]
            cursor = before.count
        default:
            return false
        }
        return true
    }

    /// Where the word before `position` begins (spaces before it skipped).
    private func wordStart(before position: Int) -> Int {
        var start = position
        while start > 0, !characters[start - 1].isLetter && !characters[start - 1].isNumber { start -= 1 }
        while start > 0, characters[start - 1].isLetter || characters[start - 1].isNumber { start -= 1 }
        return start
    }

    /// Where the word after `position` ends (spaces before it skipped).
    private func wordEnd(after position: Int) -> Int {
        var end = position
        while end < characters.count, !characters[end].isLetter && !characters[end].isNumber { end += 1 }
        while end < characters.count, characters[end].isLetter || characters[end].isNumber { end += 1 }
        return end
    }
}
