import Foundation
import GroceryModel
import ViewModels

/// Draws the simple item list: a title bar, the items by home location, a status line.
public enum ItemListScreen {
    /// The smallest terminal the list is drawn in; below it a notice says so.
    public static let minimumSize = (width: 40, height: 10)

    public static func render(_ model: ItemListViewModel, width: Int, height: Int) -> ScreenBuffer {
        var screen = ScreenBuffer(width: width, height: height)
        guard width >= minimumSize.width, height >= minimumSize.height else {
            let notice = "Terminal too small"
            let need = "need \(minimumSize.width)×\(minimumSize.height)"
            screen.put(TextWidth.truncate(notice, to: width), row: height / 2 - 1, column: max(0, (width - notice.count) / 2))
            screen.put(TextWidth.truncate(need, to: width), row: height / 2, column: max(0, (width - need.count) / 2))
            return screen
        }

        let titleStyle = CellStyle(bold: true, reverse: true, color: .title)
        screen.fill(row: 0, style: titleStyle)
        screen.put(" Grocery Dude", row: 0, column: 0, style: titleStyle)
        let counts = "\(model.rowCount) items, \(model.listedCount) listed · \(model.device) "
        let countsWidth = TextWidth.columns(of: counts)
        if countsWidth < width - 16 { screen.put(counts, row: 0, column: width - countsWidth, style: titleStyle) }

        // The app sets the model's viewport to the list's height (height - 2) before drawing.
        for (offset, entry) in model.visibleLines.prefix(height - 2).enumerated() {
            let y = offset + 1
            switch entry.line {
            case .header(let section):
                screen.put(TextWidth.truncate(section.title, to: width - 1), row: y, column: 1, style: CellStyle(bold: true, color: .section))
            case .row(let position):
                guard let row = entry.row else { continue }
                let selected = position == model.selection
                let style = CellStyle(reverse: selected, color: row.item.listed ? .listed : .normal)
                if selected { screen.fill(row: y, style: style) }
                let mark = row.item.listed ? "[x]" : "[ ]"
                screen.put("  \(mark) " + TextWidth.truncate(row.summary, to: width - 8), row: y, column: 0, style: style)
            }
        }
        if model.rowCount == 0 {
            screen.put("No items. Add some with: grocery-dude item add NAME", row: 2, column: 2, style: CellStyle(dim: true))
        }

        let statusStyle = CellStyle(reverse: true, color: .status)
        screen.fill(row: height - 1, style: statusStyle)
        let keys = " ↑↓/jk move  Space list/unlist  q quit"
        screen.put(keys, row: height - 1, column: 0, style: statusStyle)
        if let message = model.message {
            let room = width - TextWidth.columns(of: keys) - 3
            if room > 8 {
                let text = TextWidth.truncate(message, to: room)
                screen.put(text, row: height - 1, column: width - TextWidth.columns(of: text) - 1, style: statusStyle)
            }
        }
        return screen
    }
}
