import Foundation
import TextAndFiles
import ViewModels

/// The Cloud screen: the setting, account, device, "Using local storage", peer, model version,
/// last sync, pending logs, devices whose clocks are far ahead, refused files, recent
/// transitions and imports, and the actions' keys.
enum CloudView {
    /// The terminal's style for each emphasis the view model gives a row.
    static func style(_ emphasis: CloudScreenRow.Emphasis) -> CellStyle {
        switch emphasis {
        case .plain: .plain
        case .strong: CellStyle(bold: true)
        case .quiet: CellStyle(dim: true)
        case .warning: CellStyle(color: .warning)
        }
    }

    /// The largest useful scroll: the last row at the bottom.
    static func maximumScroll(_ model: CloudViewModel, height: Int) -> Int {
        max(0, model.rows.count - height)
    }

    /// Draws the rows ``CloudViewModel/rows`` words: the screen scrolls (↑↓ PgUp PgDn Home
    /// End) when the terminal is shorter than they are.
    static func draw(_ model: CloudViewModel, into screen: inout ScreenBuffer, top: Int, height: Int, scroll: Int = 0) {
        let width = screen.width
        let all = model.rows
        let first = min(max(0, scroll), max(0, all.count - height))
        let labelWidth = width >= 60 ? 21 : 14
        for (offset, row) in all.dropFirst(first).prefix(height).enumerated() {
            let y = top + offset
            switch row {
            case .field(let label, let value, let emphasis):
                screen.put(
                    " " + TextWidth.truncate(label, to: labelWidth - 2), row: y, column: 0, style: CellStyle(dim: true))
                screen.put(
                    TextWidth.truncate(value, to: width - labelWidth - 1), row: y, column: labelWidth,
                    style: style(emphasis))
            case .title(let title, let note):
                screen.put(" " + title, row: y, column: 0, style: CellStyle(bold: true, color: .section))
                if !note.isEmpty {
                    screen.put(
                        "  " + note, row: y, column: 1 + TextWidth.columns(of: title), style: CellStyle(dim: true))
                }
            case .text(let text, let emphasis):
                screen.put(TextWidth.truncate(text, to: width - 1), row: y, column: 0, style: style(emphasis))
            case .blank:
                break
            }
        }
        // More above or below: said on the screen's edge, as a long dialog does.
        if first > 0 { screen.put(" ↑ more ", row: top, column: max(0, width - 9), style: CellStyle(bold: true)) }
        if first + height < all.count {
            screen.put(" ↓ more ", row: top + height - 1, column: max(0, width - 9), style: CellStyle(bold: true))
        }
    }

    static func time(_ date: Date) -> String { ScreenTime.text(date) }
}
