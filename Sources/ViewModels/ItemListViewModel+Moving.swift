import Foundation
import GroceryModel

/// Moving through the list: the selection, the screen's height, scrolling.
extension ItemListViewModel {
    public func moveSelection(by delta: Int) {
        moveSelection(to: selection + delta)
    }

    public func moveSelection(to position: Int) {
        guard rowCount > 0 else { return }
        selection = min(max(position, 0), rowCount - 1)
        keepSelectionVisible()
    }

    /// Selects an item by ID, if the list shows it.
    @discardableResult
    public func select(_ id: ItemID) -> Bool {
        guard let position = index.ids.firstIndex(of: id) else { return false }
        moveSelection(to: position)
        return true
    }

    /// The screen's height changed.
    public func setViewport(height: Int) {
        guard height != viewportHeight, height > 0 else { return }
        viewportHeight = height
        keepSelectionVisible()
    }

    /// Scrolls as little as possible to show the selection, with its section's header when the
    /// selection is a section's first row.
    func keepSelectionVisible() {
        let maxTop = max(0, lineCount - viewportHeight)
        guard rowCount > 0 else {
            scrollTop = 0
            readVisibleRows()
            return
        }
        let line = lineOfRow(selection)
        let wanted =
            index.section(containing: selection).map { index.sections[$0].start == selection } == true ? line - 1 : line
        if wanted < scrollTop { scrollTop = wanted }
        if line >= scrollTop + viewportHeight { scrollTop = line - viewportHeight + 1 }
        scrollTop = min(max(scrollTop, 0), maxTop)
        readVisibleRows()
    }
}
