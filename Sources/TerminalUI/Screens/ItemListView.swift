import Foundation
import GroceryModel
import TextAndFiles
import ViewModels

/// Prepare and Shop: sections by location with their rows. Prepare marks what is on the list
/// ([x]); Shop marks what was collected ([✓], dimmed).
enum ItemListView {
    static func draw(_ model: ItemListViewModel, into screen: inout ScreenBuffer, top: Int, height: Int) {
        let width = screen.width
        var y = top
        for line in filterLines(model) {
            screen.put(TextWidth.truncate(line, to: width - 1), row: y, column: 0, style: CellStyle(color: .hint))
            y += 1
        }
        if model.rowCount == 0 {
            let text =
                model.searchText.isEmpty
                ? (model.screen == .shop
                    ? "Nothing on the list. Add items on Prepare (Space)."
                    : model.onlyListed ? "Nothing is listed. f shows every item." : "No items. Press a to add one.")
                : "No item matches."
            screen.put(TextWidth.truncate(text, to: width - 4), row: y + 1, column: 2, style: CellStyle(dim: true))
            return
        }
        for entry in model.visibleLines.prefix(top + height - y) {
            switch entry.line {
            case .header(let section):
                let count = " \(section.total)"
                screen.put(
                    TextWidth.truncate(section.title, to: width - 2 - TextWidth.columns(of: count)), row: y, column: 1,
                    style: CellStyle(bold: true, color: .section))
                screen.putRight(count, row: y, style: CellStyle(dim: true))
            case .row(let position):
                guard let row = entry.row else { break }
                let selected = position == model.selection
                let done = model.screen == .shop && row.item.collected
                let style = CellStyle(
                    reverse: selected, dim: done && !selected,
                    color: row.item.listed && model.screen == .prepare ? .listed : .normal)
                if selected { screen.fill(row: y, style: style) }
                let mark =
                    model.screen == .prepare ? (row.item.listed ? "[x]" : "[ ]") : (row.item.collected ? "[✓]" : "[ ]")
                var text = "  \(mark) \(row.summary)"
                if row.photoSize != nil { text += " ▣" }
                if model.screen == .shop, let person = model.claims[row.id] { text += "  (\(person))" }
                let shown = TextWidth.truncate(text, to: width - 1)
                screen.put(shown, row: y, column: 0, style: style)
                if let match = SearchMatch.range(of: model.searchText, in: String(text.dropFirst(6))) {
                    // The search's match, in the name or summary (after the mark), stands out.
                    let characters = Array(shown)
                    let start = min(characters.count, 6 + match.lowerBound)
                    let end = min(characters.count, 6 + match.upperBound)
                    let column = TextWidth.columns(of: String(characters[..<start]))
                    var highlight = style
                    highlight.bold = true
                    highlight.color = .hint
                    screen.put(String(characters[start..<end]), row: y, column: column, style: highlight)
                }
            }
            y += 1
        }
    }

    /// What narrows the list, a line each above it: the search, Prepare's "only listed".
    static func filterLines(_ model: ItemListViewModel) -> [String] {
        var lines: [String] = []
        if let shop = model.shopName { lines.append(" \(shop)  (s S: other shops)") }
        if !model.searchText.isEmpty {
            lines.append(" Search: \(model.searchText)  (\(model.rowCount) found; Esc clears)")
        }
        if model.onlyListed { lines.append(" Only listed items  (f shows every item)") }
        return lines
    }

    /// How many lines the list gets in a content area of `height` (less the filter lines).
    static func listHeight(_ model: ItemListViewModel, contentHeight: Int) -> Int {
        max(1, contentHeight - filterLines(model).count)
    }
}
