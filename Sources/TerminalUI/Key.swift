import Foundation

/// A key the app understands, decoded from curses' input (or sent by a test).
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, insert, tab, backTab, resize
    /// Ctrl and a letter: `.control("l")` for Ctrl-L.
    case control(Character)
    /// Alt (Meta) and a key, sent by terminals as Esc then the key: `.alt("d")`; Alt-Backspace
    /// is `.alt("\u{7f}")`.
    case alt(Character)
    /// A function key: `.function(1)` for F1.
    case function(Int)
    /// Text the terminal pasted (bracketed paste): text, never keys.
    case paste(String)
    /// A key or escape sequence the terminal sent that means nothing here.
    case unknown
    /// The mouse: a click, a double click, the wheel (column and line from 0).
    case mouse(MouseEvent)

    /// Alt-Backspace's character.
    public static let altBackspace = Key.alt("\u{7f}")

    /// How the key is named to the user ("x", "Ctrl-L", "Alt-d", "F2").
    public var name: String {
        switch self {
        case .character(let character): String(character)
        case .control(let character): "Ctrl-\(character.uppercased())"
        case .alt(let character): character == "\u{7f}" ? "Alt-Backspace" : "Alt-\(character)"
        case .function(let number): "F\(number)"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .insert: "Insert"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .resize: "resize"
        case .paste: "a paste"
        case .unknown: "that key"
        case .mouse: "the mouse"
        }
    }
}

/// What the mouse did, where (column and line from 0, as the screen buffer counts).
public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case click, doubleClick, wheelUp, wheelDown
    }

    public var kind: Kind
    public var x: Int
    public var y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
