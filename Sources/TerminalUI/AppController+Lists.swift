import GroceryModel
import ViewModels

/// Keys over Prepare and Shop.
extension AppController {
    func handleList(_ list: Key, _ model: ItemListViewModel) -> Outcome {
        let page = max(1, model.viewportHeight - 1)
        switch list {
        case .up, .character("k"): model.moveSelection(by: -1)
        case .down, .character("j"): model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -page)
        case .pageDown: model.moveSelection(by: page)
        case .home, .character("g"): model.moveSelection(to: 0)
        case .end, .character("G"): model.moveSelection(to: model.rowCount - 1)
        case .character(" "): model.toggleSelected()
        case .enter, .character("e"):
            guard let id = model.selectedID else { return .ignored }
            app.openEditor(id)
            ui.editorRow = 0
        case .character("a"): ask(.addItem, "Add item:")
        case .character("d"): model.requestDeleteSelected()
        case .character("+"), .character("="): model.changeQuantity(by: 1)
        case .character("-"): model.changeQuantity(by: -1)
        case .character("C"): model.requestClear()
        case .character("o") where model.screen == .prepare:
            model.order = model.order == .byName ? .byLocation : .byName
        case .character("f") where model.screen == .prepare: model.onlyListed.toggle()
        case .character("s") where model.screen == .shop: app.switchShop(by: 1)
        case .character("S") where model.screen == .shop: app.switchShop(by: -1)
        case .character("/"): ask(.search, "Search:", model.searchText)
        case .character("n"): model.moveSelection(to: model.selection + 1 < model.rowCount ? model.selection + 1 : 0)
        case .character("N"): model.moveSelection(to: model.selection > 0 ? model.selection - 1 : model.rowCount - 1)
        case .escape:
            guard !model.searchText.isEmpty else { return .ignored }
            model.searchText = ""
        default: return .ignored
        }
        return .handled
    }
}
