import GroceryModel

@testable import ViewModels

extension ItemListViewModel {
    /// Each section's item names, read through the batches as a screen would.
    var namesBySection: [[String]] { sections.map { $0.rows.map { row(at: $0)!.name } } }
    var allNames: [String] { namesBySection.flatMap { $0 } }
}
