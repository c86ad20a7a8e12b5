import Foundation
import ViewModels

/// A dialog, centred over the screen: title, message, and buttons with their hotkeys (the
/// focused one reversed), a text field for a typed confirmation, or a progress bar.
enum DialogView {
    static func draw(_ dialog: Dialog, focus: Int, field: TextField, into screen: inout ScreenBuffer) {
        let width = min(screen.width - 2, 64)
        let inner = width - 4
        var body: [String] = []
        switch dialog {
        case .confirm(_, let message, _): body = message.map { TextWrap.lines($0, width: inner) } ?? []
        case .choice(_, let message, _, _), .message(_, let message), .typedConfirmation(_, let message, _, _):
            body = TextWrap.lines(message, width: inner)
        case .progress: body = []
        }
        let extra: Int = if case .typedConfirmation = dialog { 2 } else if case .progress = dialog { 2 } else { 0 }
        let maxBody = max(0, screen.height - 6 - extra)
        if body.count > maxBody { body = Array(body.prefix(maxBody)) }
        let buttons = DialogButton.buttons(for: dialog).buttons
        let height = body.count + extra + (buttons.isEmpty ? 2 : 4)
        let top = max(0, (screen.height - height) / 2), left = max(0, (screen.width - width) / 2)
        screen.box(top: top, left: left, width: width, height: height, title: dialog.title)
        for (index, line) in body.enumerated() { screen.put(line, row: top + 1 + index, column: left + 2) }
        var y = top + 1 + body.count
        switch dialog {
        case .typedConfirmation(_, _, let phrase, _):
            y += 1
            let prompt = "Type \"\(phrase)\": "
            screen.put(prompt, row: y, column: left + 2, style: CellStyle(bold: true))
            drawField(field, into: &screen, row: y, column: left + 2 + TextWidth.columns(of: prompt), width: inner - TextWidth.columns(of: prompt))
        case .progress(_, let done, let total):
            y += 1
            let label = total > 0 ? " \(done)/\(total)" : " …"
            let barWidth = max(4, inner - TextWidth.columns(of: label))
            let filled = total > 0 ? min(barWidth, barWidth * done / max(total, 1)) : 0
            screen.put(String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + label,
                       row: y, column: left + 2)
        default: break
        }
        guard !buttons.isEmpty else { return }
        let captions = buttons.map { " \($0.caption) " }
        var x = left + width - 2 - captions.reduce(0) { $0 + TextWidth.columns(of: $1) + 1 }
        for (index, caption) in captions.enumerated() {
            screen.put(caption, row: top + height - 2, column: max(left + 1, x), style: CellStyle(bold: index == focus, reverse: index == focus))
            x += TextWidth.columns(of: caption) + 1
        }
    }

    /// A text field: its text, scrolled so the cursor shows, the cursor as a reversed cell.
    static func drawField(_ field: TextField, into screen: inout ScreenBuffer, row: Int, column: Int, width: Int) {
        guard width > 1 else { return }
        let characters = field.characters
        var start = 0
        while TextWidth.columns(of: String(characters[start..<field.cursor])) > width - 1 { start += 1 }
        var x = column
        for index in start...characters.count {
            let character: Character = index < characters.count ? characters[index] : " "
            let columns = max(1, TextWidth.columns(of: character))
            if x + columns > column + width { break }
            screen.put(String(character), row: row, column: x, style: CellStyle(reverse: index == field.cursor, color: .normal))
            x += columns
        }
    }
}

/// Every key, over the screen (`?`).
enum HelpView {
    static let sections: [(String, [(String, String)])] = [
        ("Everywhere", [("1-6 Tab S-Tab", "switch screens"), ("?", "this help"), ("u", "undo the last change made here"), ("U Ctrl-R", "redo what was undone"),
                        ("L", "lists: open another, or make one"), ("q", "back, or quit"), ("Ctrl-L", "redraw")]),
        ("Prepare and Shop", [("↑↓ j k", "move"), ("PgUp PgDn g G", "page, first, last"), ("Space", "list / collect"),
                              ("Enter e", "edit"), ("a", "add (on the list)"), ("+ -", "quantity up, down"), ("d", "delete (asks)"), ("/ n N", "search, next, previous"),
                              ("C", "clear (asks on Prepare)"), ("Esc", "clear the search")]),
        ("Item editor", [("↑↓ Enter", "choose a field, edit it"), ("p x", "attach, remove a photo"), ("s", "save, and stay"),
                         ("q Esc", "leave (asks if unsaved)")]),
        ("Units, Home, Aisles", [("a r d", "add, rename, delete")]),
        ("Cloud", [("c", "cloud sync on / off"), ("s", "sync now"), ("o", "offline / online"), ("i O", "sign in or switch, sign out"),
                   ("R", "rebuild from the cloud"), ("X", "start over (asks to type it)"), ("K", "skip a refused log (asks)")]),
        ("Typing", [("← → Ctrl-A Ctrl-E", "move"), ("Ctrl-K Ctrl-W Ctrl-U", "cut to end, word, line"), ("Enter Esc", "done, cancel")]),
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
        let ordered = sections.filter { $0.0 == current } + sections.filter { $0.0 == "Everywhere" && $0.0 != current }
            + sections.filter { $0.0 != current && $0.0 != "Everywhere" }
        var lines: [(String, CellStyle)] = []
        for (title, keys) in ordered {
            if !lines.isEmpty { lines.append(("", .plain)) }
            lines.append((title, CellStyle(bold: true, color: .section)))
            for (key, what) in keys { lines.append(("  " + TextWidth.pad(key, to: keyColumn) + what, .plain)) }
        }
        return lines
    }

    /// How many lines of the help fit on `screen`, inside its box.
    static func visibleLineCount(on screen: ScreenBuffer, total: Int) -> Int {
        max(1, min(screen.height - 2, total + 3) - 3)
    }

    /// The largest useful scroll: the last line at the bottom of the box.
    static func maximumScroll(height: Int, total: Int) -> Int {
        max(0, total - max(1, min(height - 2, total + 3) - 3))
    }

    static func draw(into screen: inout ScreenBuffer, current: String, scroll: Int) {
        let width = min(screen.width - 2, 60)
        let lines = lines(first: current, width: width)
        let height = min(screen.height - 2, lines.count + 3)
        let top = max(0, (screen.height - height) / 2), left = max(0, (screen.width - width) / 2)
        let shown = visibleLineCount(on: screen, total: lines.count)
        let first = min(max(0, scroll), maximumScroll(height: screen.height, total: lines.count))
        screen.box(top: top, left: left, width: width, height: height, title: "Keys")
        for (index, line) in lines.dropFirst(first).prefix(shown).enumerated() {
            screen.put(TextWidth.truncate(line.0, to: width - 4), row: top + 1 + index, column: left + 2, style: line.1)
        }
        let more = first + shown < lines.count
        let footer = first > 0 || more ? (more ? "↓ more  " : "") + (first > 0 ? "↑ back  " : "") + "q closes" : "any key closes"
        let fitted = TextWidth.truncate(footer, to: max(1, width - 4))
        screen.put(fitted, row: top + height - 2, column: max(left + 2, left + width - 2 - TextWidth.columns(of: fitted)), style: CellStyle(dim: true))
    }
}
