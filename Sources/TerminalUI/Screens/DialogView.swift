import Foundation
import TextAndFiles
import ViewModels

/// A dialog, centred over the screen: title, message, and buttons with their hotkeys (the
/// focused one reversed), a text field for a typed confirmation, or a progress bar. Its message
/// is wrapped, never cut: when the terminal is too short for it, the box takes the whole height
/// and the message scrolls (↑↓), its bottom edge saying there is more.
enum DialogView {
    /// The box's width on a screen `width` wide.
    static func width(screen width: Int) -> Int { min(width - 2, 64) }

    /// The dialog's message, wrapped to the box on a screen `width` wide.
    static func body(_ dialog: Dialog, screenWidth: Int) -> [String] {
        let inner = width(screen: screenWidth) - 4
        switch dialog {
        case .confirm(_, let message, _): return message.map { TextWrap.lines($0, width: inner) } ?? []
        case .choice(_, let message, _, _), .message(_, let message), .typedConfirmation(_, let message, _, _):
            return TextWrap.lines(message, width: inner)
        case .progress: return []
        }
    }

    /// Lines of the box besides its message: the field or bar (and the blank line above it).
    static func extraLines(_ dialog: Dialog) -> Int {
        switch dialog {
        case .typedConfirmation, .progress: 2
        default: 0
        }
    }

    /// How many lines of the message fit on a screen `height` tall.
    static func visibleBodyCount(_ dialog: Dialog, screenHeight: Int) -> Int {
        let frame = DialogButton.buttons(for: dialog).buttons.isEmpty ? 2 : 4
        return max(1, screenHeight - frame - extraLines(dialog))
    }

    /// The largest useful scroll of the message: its last line at the bottom of the box.
    static func maximumScroll(_ dialog: Dialog, width: Int, height: Int) -> Int {
        max(0, body(dialog, screenWidth: width).count - visibleBodyCount(dialog, screenHeight: height))
    }

    static func draw(_ dialog: Dialog, focus: Int, field: TextField, scroll: Int = 0, into screen: inout ScreenBuffer) {
        let width = width(screen: screen.width)
        let inner = width - 4
        let whole = body(dialog, screenWidth: screen.width)
        let extra = extraLines(dialog)
        let first = min(max(0, scroll), maximumScroll(dialog, width: screen.width, height: screen.height))
        let body = Array(whole.dropFirst(first).prefix(visibleBodyCount(dialog, screenHeight: screen.height)))
        let buttons = DialogButton.buttons(for: dialog).buttons
        let height = body.count + extra + (buttons.isEmpty ? 2 : 4)
        let top = max(0, (screen.height - height) / 2)
        let left = max(0, (screen.width - width) / 2)
        screen.box(top: top, left: left, width: width, height: height, title: dialog.title)
        for (index, line) in body.enumerated() { screen.put(line, row: top + 1 + index, column: left + 2) }
        if body.count < whole.count {
            let above = first > 0
            let below = first + body.count < whole.count
            let more = " " + (above && below ? "↑↓" : below ? "↓" : "↑") + " more "
            screen.put(more, row: top + height - 1, column: left + 2, style: CellStyle(bold: true))
        }
        var y = top + 1 + body.count
        switch dialog {
        case .typedConfirmation(_, _, let phrase, _):
            y += 1
            let prompt = "Type \"\(phrase)\": "
            screen.put(prompt, row: y, column: left + 2, style: CellStyle(bold: true))
            drawField(
                field, into: &screen, row: y, column: left + 2 + TextWidth.columns(of: prompt),
                width: inner - TextWidth.columns(of: prompt))
        case .progress(_, let done, let total):
            y += 1
            let label = total > 0 ? " \(done)/\(total)" : " …"
            let barWidth = max(4, inner - TextWidth.columns(of: label))
            let filled = total > 0 ? min(barWidth, barWidth * done / max(total, 1)) : 0
            screen.put(
                String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + label,
                row: y, column: left + 2)
        default: break
        }
        guard !buttons.isEmpty else { return }
        let captions = buttons.map { " \($0.caption) " }
        var x = left + width - 2 - captions.reduce(0) { $0 + TextWidth.columns(of: $1) + 1 }
        for (index, caption) in captions.enumerated() {
            screen.put(
                caption, row: top + height - 2, column: max(left + 1, x),
                style: CellStyle(bold: index == focus, reverse: index == focus))
            x += TextWidth.columns(of: caption) + 1
        }
    }

    /// A text field: its text, scrolled so the cursor shows, the cursor as a reversed cell with
    /// the terminal's own cursor on it (a terminal that cannot show its cursor still shows where).
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
            screen.put(
                String(character), row: row, column: x, style: CellStyle(reverse: index == field.cursor, color: .normal)
            )
            if index == field.cursor { screen.cursor = (row, x) }
            x += columns
        }
    }
}
