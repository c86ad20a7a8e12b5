import GroceryModel
import ViewModels

/// Keys over the units, home locations and shop aisles.
extension AppController {
    func handleCatalog(_ key: Key, _ model: CatalogListViewModel) -> Outcome {
        switch key {
        case .up, .character("k"): model.moveSelection(by: -1)
        case .down, .character("j"): model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -10)
        case .pageDown: model.moveSelection(by: 10)
        case .home, .character("g"): model.moveSelection(by: -model.entries.count)
        case .end, .character("G"): model.moveSelection(by: model.entries.count)
        case .character("a"): ask(.addEntry, "Add \(model.kind.noun):")
        case .enter, .character("e"), .character("r"):
            guard let entry = model.selectedEntry else { return .ignored }
            ask(.renameEntry, "Rename \(entry.name) to:", entry.name)
        case .character("d"): model.requestDeleteSelected()
        // The Aisles screen: a shop's aisles in walking order.
        case .character("K") where model.isWalkingOrder: model.moveSelectedAisle(by: -1)
        case .character("J") where model.isWalkingOrder: model.moveSelectedAisle(by: 1)
        case .character("s") where model.isWalkingOrder: app.switchShop(by: 1)
        case .character("S") where model.isWalkingOrder: app.switchShop(by: -1)
        case .character("N") where model.isWalkingOrder: ask(.addShop, "New shop:")
        default: return .ignored
        }
        return .handled
    }
}
