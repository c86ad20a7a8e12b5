import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

@testable import ViewModels

/// Lists read their order, then only the rows on screen, a batch at a time; refreshes change
/// only the rows that changed and keep the selection and scroll position on their item.
@Suite("Item lists in batches")
struct ItemListBatchingTests {
    let directory = TemporaryDirectory("batches")
    let cloud = TemporaryDirectory("batches-cloud")

    @Test func aScreenfulOf100kItemsIsReadWithoutReadingThemAll() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.fill(items: 100_000, locations: 40)
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.setViewport(height: 22)
        #expect(model.refreshIfChanged())
        #expect(model.rowCount == 100_000)
        #expect(model.sections.count == 40)
        let screen = model.visibleLines
        #expect(screen.count == 22)
        #expect(screen.first.map { $0.line } == .header(model.sections[0]))
        #expect(screen.dropFirst().allSatisfy { $0.row != nil })
        #expect(model.rowsRead <= model.batchSize, "one batch read, not 100,000 rows: read \(model.rowsRead)")

        // Far down the list: one more batch, and the lines there are the right ones.
        model.moveSelection(to: 75_000)
        let selected = try #require(model.selectedRow)
        #expect(model.visibleLines.contains { $0.row?.id == selected.id })
        #expect(model.rowsRead <= 2 * model.batchSize)
        let section = try #require(model.index.section(containing: 75_000))
        #expect(selected.homeLocationName == model.sections[section].title)
        #expect(model.lineOfRow(75_000) - model.scrollTop < 22 && model.lineOfRow(75_000) >= model.scrollTop)
    }

    @Test func linesAreHeadersThenRowsInOrder() throws {
        let store = try GroceryStore.temporary(in: directory)
        for (name, home) in [("Milk", "Fridge"), ("Butter", "Fridge"), ("Apples", "Bowl"), ("Candles", nil)] {
            var draft = ItemDraft(name: name)
            draft.homeLocation = home
            try store.addItem(draft)
        }
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.refreshIfChanged()
        let lines = model.visibleLines.map { entry -> String in
            switch entry.line {
            case .header(let section): "# \(section.title)"
            case .row: entry.row!.name
            }
        }
        #expect(lines == ["# Bowl", "Apples", "# Fridge", "Butter", "Milk", "# Unknown location", "Candles"])
        #expect(model.lineCount == 7)
        #expect(model.listedCount == 4)
    }

    /// An import changes one item on screen: only its row changes, and the selection and the
    /// scroll position stay on the same item even though an item arrived above them.
    @Test func anImportChangesOnlyTheAffectedRowsAndKeepsSelectionAndScroll() throws {
        func peer(_ name: String) throws -> (GroceryStore, CloudSync) {
            let store = try GroceryStore(
                path: directory.file("\(name).sqlite").path, defaultData: false, peer: "peer-\(name)")
            let layout = try CloudLayout(
                cloud: cloud.url, account: "default", storeName: "GroceryDude", modelVersion: store.modelVersion)
            return (store, CloudSync(store: store.objects, layout: layout, device: name))
        }
        let (here, hereSync) = try peer("here")
        let (there, thereSync) = try peer("there")
        try here.fill(items: 200, locations: 1)
        try hereSync.sync()
        try thereSync.sync()

        let model = ItemListViewModel(store: here, device: "here")
        model.setViewport(height: 10)
        model.refreshIfChanged()
        model.moveSelection(to: 120)
        let selectedID = try #require(model.selectedID)
        let heightOnScreen = model.lineOfRow(model.selection) - model.scrollTop
        let onScreen = model.visibleLines.compactMap(\.row)
        let edited = onScreen[onScreen.count / 2]

        var changes = ItemChanges()
        changes.quantity = 9
        try there.editItem(edited.id.description, changes)
        try there.addItem(ItemDraft(name: "Item 000000 (first)"))  // sorts above everything
        try thereSync.sync()
        #expect(try hereSync.importPending().changes.count >= 2)

        #expect(model.refreshIfChanged())
        #expect(model.selectedID == selectedID, "the selection stays on its item")
        #expect(model.lineOfRow(model.selection) - model.scrollTop == heightOnScreen, "at the same height on screen")
        #expect(model.changedRows == [edited.id], "only the edited row changed on screen")
        #expect(model.visibleLines.contains { $0.row?.id == edited.id && $0.row?.item.quantity == 9 })
    }

    @Test func theSelectedItemDeletedElsewhereLeavesTheSelectionInRange() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.fill(items: 30, locations: 3)
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.setViewport(height: 8)
        model.refreshIfChanged()
        model.moveSelection(to: 29)
        let last = try #require(model.selectedRow)
        try store.removeItem(last.id.description)
        model.refreshIfChanged()
        #expect(model.rowCount == 29)
        #expect(model.selection == 28)
        #expect(model.visibleLines.contains { $0.row?.id == model.selectedID })
    }
}
