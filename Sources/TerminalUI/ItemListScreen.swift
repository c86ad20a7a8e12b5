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

        let lines = displayLines(model)
        let listHeight = height - 2
        let selectedLine = lines.firstIndex { $0.rowIndex == model.selection } ?? 0
        // Keep the selection visible, with its section header when there is room.
        var top = max(0, selectedLine - listHeight + 1)
        if selectedLine - top > listHeight - 1 { top = selectedLine - listHeight + 1 }
        top = min(top, max(0, lines.count - listHeight))
        if top > 0, selectedLine < top + 1 { top = max(0, selectedLine - 1) }

        for (offset, line) in lines.dropFirst(top).prefix(listHeight).enumerated() {
            let y = offset + 1
            switch line {
            case .header(let title):
                screen.put(TextWidth.truncate(title, to: width - 1), row: y, column: 1, style: CellStyle(bold: true, color: .section))
            case .item(let row, let index):
                let selected = index == model.selection
                let style = CellStyle(reverse: selected, color: row.item.listed ? .listed : .normal)
                if selected { screen.fill(row: y, style: style) }
                let mark = row.item.listed ? "[x]" : "[ ]"
                screen.put("  \(mark) " + TextWidth.truncate(row.summary, to: width - 8), row: y, column: 0, style: style)
            }
        }
        if lines.isEmpty {
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

    enum Line {
        case header(String)
        case item(ItemRow, index: Int)

        var rowIndex: Int? {
            if case .item(_, let index) = self { return index }
            return nil
        }
    }

    static func displayLines(_ model: ItemListViewModel) -> [Line] {
        var lines: [Line] = []
        var index = 0
        for section in model.sections {
            lines.append(.header(section.title))
            for row in section.rows {
                lines.append(.item(row, index: index))
                index += 1
            }
        }
        return lines
    }
}
