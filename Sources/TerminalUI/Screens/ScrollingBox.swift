import Foundation
import TextAndFiles

/// A framed box of lines over the screen that scrolls when the terminal is smaller than it: the
/// help (`?`) and the messages in full (`m`). Its footer says what scrolls and what closes it.
enum ScrollingBox {
    /// The box's width on a screen `width` wide.
    static func width(screen width: Int) -> Int { min(width - 2, 60) }

    /// `text` wrapped to fit inside the box on a screen `width` wide, the lines after the first
    /// indented: an entry of a list the box shows.
    static func wrapped(_ text: String, screen width: Int) -> [(String, CellStyle)] {
        let inner = max(10, self.width(screen: width) - 4)
        return TextWrap.lines(text, width: inner - 2).enumerated().map {
            ((($0.offset == 0 ? "" : "  ") + $0.element), .plain)
        }
    }

    /// How many lines show inside the box on a screen `height` tall.
    static func visibleLineCount(height: Int, total: Int) -> Int {
        max(1, min(height - 2, total + 3) - 3)
    }

    /// The largest useful scroll: the last line at the bottom of the box.
    static func maximumScroll(height: Int, total: Int) -> Int {
        max(0, total - visibleLineCount(height: height, total: total))
    }

    static func draw(title: String, lines: [(String, CellStyle)], scroll: Int, into screen: inout ScreenBuffer) {
        let width = width(screen: screen.width)
        let height = min(screen.height - 2, lines.count + 3)
        let top = max(0, (screen.height - height) / 2)
        let left = max(0, (screen.width - width) / 2)
        let shown = visibleLineCount(height: screen.height, total: lines.count)
        let first = min(max(0, scroll), maximumScroll(height: screen.height, total: lines.count))
        screen.box(top: top, left: left, width: width, height: height, title: title)
        for (index, line) in lines.dropFirst(first).prefix(shown).enumerated() {
            screen.put(TextWidth.truncate(line.0, to: width - 4), row: top + 1 + index, column: left + 2, style: line.1)
        }
        let more = first + shown < lines.count
        let footer =
            first > 0 || more ? (more ? "↓ more  " : "") + (first > 0 ? "↑ back  " : "") + "q closes" : "any key closes"
        let fitted = TextWidth.truncate(footer, to: max(1, width - 4))
        screen.put(
            fitted, row: top + height - 2, column: max(left + 2, left + width - 2 - TextWidth.columns(of: fitted)),
            style: CellStyle(dim: true))
    }
}
