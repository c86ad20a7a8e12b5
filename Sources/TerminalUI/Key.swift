import Foundation

/// A key the app understands, decoded from curses' input (or sent by a test).
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab, resize
    /// Ctrl and a letter: `.control("l")` for Ctrl-L.
    case control(Character)
}
