import Foundation
import GroceryModel
import ViewModels

/// The edited item's history in full (`h` in the editor): every change this device knows,
/// newest first, with whose it was and when, each wrapped to the box's width. It scrolls as the
/// help does; any other key closes it.
enum ItemHistoryView {
    static func lines(_ controller: AppController, width: Int) -> [(String, CellStyle)] {
        guard let editor = controller.app.editor else { return [] }
        var lines = editor.historyLines(now: controller.app.now).flatMap { ScrollingBox.wrapped($0, screen: width) }
        lines.append(("", .plain))
        lines.append(("Kept 90 days on this device; times are when each change was made.", CellStyle(dim: true)))
        return lines
    }

    static func title(_ controller: AppController) -> String {
        "History of " + (controller.app.editor?.history?.name ?? controller.app.editor?.values[.name] ?? "the item")
    }

    static func maximumScroll(_ controller: AppController, width: Int, height: Int) -> Int {
        ScrollingBox.maximumScroll(height: height, total: lines(controller, width: width).count)
    }

    static func draw(_ controller: AppController, scroll: Int, into screen: inout ScreenBuffer) {
        ScrollingBox.draw(
            title: title(controller), lines: lines(controller, width: screen.width), scroll: scroll, into: &screen)
    }
}
