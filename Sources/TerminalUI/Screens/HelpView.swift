import Foundation
import TextAndFiles
import ViewModels

/// Every key, over the screen (`?`); the key table of docs/user-guide.md is made of the same
/// words (``markdownTable()``, compared by a test).
enum HelpView {
    static let sections: [(String, [(String, String)])] = [
        (
            "Everywhere",
            [
                ("1-6 Tab S-Tab", "switch screens"), ("? F1", "this help"), ("u", "undo the last change made here"),
                ("U Ctrl-R", "redo what was undone"), ("m", "messages, transitions in full"),
                ("L", "lists: open another, or make one"),
                ("q", "back, or quit"), ("F10 Ctrl-C", "quit"), ("Ctrl-L", "redraw"),
                ("mouse", "wheel scrolls, click selects or switches tab, double-click edits"),
            ]
        ),
        (
            "Prepare and Shop",
            [
                ("↑↓ j k", "move"), ("PgUp PgDn g G", "page, first, last"), ("Space", "list / collect"),
                ("Enter e", "edit"), ("a", "add (on the list)"), ("+ = -", "quantity up, down"), ("d", "delete (asks)"),
                ("/ n N", "search, next, previous"),
                ("o", "Prepare: by location / by name"), ("f", "Prepare: only listed, or all"),
                ("s S", "Shop: next, previous shop"),
                ("C", "clear (asks on Prepare)"), ("Esc", "clear the search"),
            ]
        ),
        (
            "Item editor",
            [
                ("↑↓ Enter", "choose a field, edit it"), ("p x", "attach, remove a photo"), ("s", "save, and stay"),
                ("h", "the item's history: who changed what"),
                ("q Esc F10", "leave (asks if unsaved)"),
            ]
        ),
        (
            "Unit and location picker",
            [
                ("letters", "jump to the entry they spell (j k g q too)"), ("↑↓ PgUp PgDn", "move"),
                ("Home End", "first, last"), ("Enter", "pick"), ("Esc F10", "cancel"),
            ]
        ),
        (
            "List switcher",
            [
                ("letters", "jump to the list they spell"), ("↑↓ PgUp PgDn Home End", "move"), ("Enter", "open"),
                ("+", "merge two lists of one name (asks)"), ("Esc", "close"),
            ]
        ),
        (
            "Units, Home, Aisles",
            [
                ("a r d", "add, rename, delete"), ("J K", "Aisles: move the aisle down, up the walking order"),
                ("s S N", "Aisles: next, previous shop; new shop"),
            ]
        ),
        (
            "Cloud",
            [
                ("c", "cloud sync on / off"), ("s", "sync now"), ("o", "offline / online"),
                ("i O", "sign in or switch, sign out (asks)"),
                ("M", "merge the newest kept store back (asks)"), ("R", "rebuild from the cloud"),
                ("X", "start over (asks to type it)"),
                ("K", "skip a refused log (asks)"), ("↑↓ PgUp PgDn", "scroll"),
            ]
        ),
        (
            "Dialogs",
            [
                ("← → Tab", "move between buttons"), ("Enter [key]", "choose"),
                ("↑↓ PgUp PgDn", "scroll a long message"),
                ("Esc q", "cancel: nothing changes"),
            ]
        ),
        ("Help and messages", [("↑↓ j k PgUp PgDn g G", "scroll"), ("other keys", "close")]),
        (
            "Typing",
            [
                ("← → Ctrl-A Ctrl-E", "move"), ("Alt-B Alt-F", "a word back, forward"),
                ("Ctrl-K Ctrl-W Ctrl-U", "cut to end, word, line"),
                ("Alt-Backspace Alt-D", "delete the word before, after"),
                ("paste", "text; lines into Add: an item each (asks)"),
                ("Enter Esc", "done, cancel"),
            ]
        ),
    ]

    /// The section of the keys of `tab`, or of the item editor.
    static func section(for tab: AppModel.Tab, editing: Bool) -> String {
        if editing { return "Item editor" }
        switch tab {
        case .prepare, .shop: return "Prepare and Shop"
        case .units, .homeLocations, .shopAisles: return "Units, Home, Aisles"
        case .cloud: return "Cloud"
        }
    }

    /// The help's lines: the current screen's keys first, then the keys that work everywhere,
    /// then the rest.
    static func lines(first current: String, width: Int = 60) -> [(String, CellStyle)] {
        // The keys' column narrows on a small terminal, so that what they do still shows.
        let keyColumn = min(22, max(8, (width - 4) / 2))
        let ordered =
            sections.filter { $0.0 == current } + sections.filter { $0.0 == "Everywhere" && $0.0 != current }
            + sections.filter { $0.0 != current && $0.0 != "Everywhere" }
        var lines: [(String, CellStyle)] = []
        for (title, keys) in ordered {
            if !lines.isEmpty { lines.append(("", .plain)) }
            lines.append((title, CellStyle(bold: true, color: .section)))
            for (key, what) in keys {
                // A key wider than its column gets a line of its own: it never runs into its words.
                if TextWidth.columns(of: key) >= keyColumn {
                    lines.append(("  " + key, .plain))
                    lines.append(("  " + String(repeating: " ", count: keyColumn) + what, .plain))
                } else {
                    lines.append(("  " + TextWidth.pad(key, to: keyColumn) + what, .plain))
                }
            }
        }
        return lines
    }

    /// The largest useful scroll on a screen `height` tall.
    static func maximumScroll(height: Int, current: String, screenWidth: Int = 80) -> Int {
        ScrollingBox.maximumScroll(
            height: height, total: lines(first: current, width: ScrollingBox.width(screen: screenWidth)).count)
    }

    static func draw(into screen: inout ScreenBuffer, current: String, scroll: Int) {
        ScrollingBox.draw(
            title: "Keys", lines: lines(first: current, width: ScrollingBox.width(screen: screen.width)),
            scroll: scroll, into: &screen)
    }

    /// The help as the key table of docs/user-guide.md: a row per key, a bold row per section,
    /// in the help's own order and words.
    static func markdownTable() -> String {
        var rows = ["| keys | what they do |", "|---|---|"]
        for (title, keys) in sections {
            rows.append("| **\(title)** | |")
            for (key, what) in keys { rows.append("| \(key) | \(what) |") }
        }
        return rows.joined(separator: "\n") + "\n"
    }
}
