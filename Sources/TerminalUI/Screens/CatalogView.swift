import Foundation
import GroceryModel
import TextAndFiles
import ViewModels

/// Units, home locations, shop aisles: the entries with how many items use each.
enum CatalogView {
    /// - Parameter renaming: the new name being typed for the selected entry, edited in place.
    static func draw(
        _ model: CatalogListViewModel, renaming: TextField? = nil, into screen: inout ScreenBuffer, top: Int,
        height: Int
    ) {
        let width = screen.width
        var top = top
        var height = height
        if let shop = model.shopName {
            // A list with several shops: whose aisles these are.
            screen.put(
                TextWidth.truncate(" Aisles of \(shop), in walking order  (J K move, s S other shops)", to: width - 1),
                row: top, column: 0, style: CellStyle(color: .hint))
            top += 1
            height = max(1, height - 1)
        }
        guard !model.entries.isEmpty else {
            screen.put(
                "No \(model.kind.noun)s. Press a to add one.", row: top + 1, column: 2, style: CellStyle(dim: true))
            return
        }
        let first = min(max(0, model.selection - height / 2), max(0, model.entries.count - height))
        for (offset, entry) in model.entries.dropFirst(first).prefix(height).enumerated() {
            let y = top + offset
            let selected = first + offset == model.selection
            let style = CellStyle(reverse: selected)
            if selected { screen.fill(row: y, style: style) }
            let uses = "\(entry.itemCount) item\(entry.itemCount == 1 ? "" : "s")"
            if selected, let renaming {
                // The new name typed where the name is shown, with the terminal's cursor in it.
                screen.put(String(repeating: " ", count: width), row: y, column: 0)
                DialogView.drawField(
                    renaming, into: &screen, row: y, column: 2, width: width - TextWidth.columns(of: uses) - 5)
            } else {
                screen.put(
                    "  " + TextWidth.truncate(entry.name, to: width - TextWidth.columns(of: uses) - 5), row: y,
                    column: 0, style: style)
            }
            screen.putRight(uses, row: y, style: CellStyle(reverse: selected, dim: !selected))
        }
    }
}
