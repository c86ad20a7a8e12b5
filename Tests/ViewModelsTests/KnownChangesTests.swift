import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

@testable import StoreLifecycle
@testable import ViewModels

/// An import's changes (and a screen's own toggle) reach the lists as known changes: only the
/// changed rows are read again when the list's order cannot have moved; otherwise, and when
/// anything else changed the store meanwhile, the list fetches everything, as before.
@Suite("Known changes: only the affected rows")
struct KnownChangesTests {
    let directory = TemporaryDirectory("known-changes")
    let cloud = TemporaryDirectory("known-changes-cloud")

    /// Two peers of one account: `here` (the app's store) and `there`.
    func peers() throws -> (here: GroceryStore, hereSync: CloudSync, there: GroceryStore, thereSync: CloudSync) {
        func peer(_ name: String) throws -> (GroceryStore, CloudSync) {
            let store = try GroceryStore(
                path: directory.file("\(name).sqlite").path, defaultData: false, peer: "peer-\(name)")
            let layout = try CloudLayout(
                cloud: cloud.url, account: "default", storeName: "GroceryDude", modelVersion: store.modelVersion)
            return (store, CloudSync(store: store.objects, layout: layout, device: name))
        }
        let (here, hereSync) = try peer("here")
        let (there, thereSync) = try peer("there")
        try here.fill(items: 200, locations: 4)
        try hereSync.sync()
        try thereSync.sync()
        return (here, hereSync, there, thereSync)
    }

    /// Imports what `there` exported, as the background sync does: the counts around it.
    func importChanges(_ sync: CloudSync, into store: GroceryStore) throws -> StoreChanges {
        let before = try store.changeCounts()
        let report = try sync.importPending()
        return StoreChanges(BackgroundImport(report, before: before, after: try store.changeCounts()))
    }

    func list(_ store: GroceryStore, _ screen: ItemListViewModel.Screen = .prepare) -> ItemListViewModel {
        let model = ItemListViewModel(store: store, device: "here", screen: screen)
        model.setViewport(height: 12)
        model.refreshIfChanged()
        return model
    }

    /// What a list fetched from scratch shows: the lines a known change must leave behind.
    func expectSameAsAFreshFetch(
        _ model: ItemListViewModel, _ store: GroceryStore,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fresh = ItemListViewModel(store: store, device: "here", screen: model.screen)
        fresh.setViewport(height: model.viewportHeight)
        fresh.refreshIfChanged()
        #expect(model.index == fresh.index, "the same order, sections and counts", sourceLocation: sourceLocation)
        for case (.row(let position), let row) in model.visibleLines {
            #expect(
                row != nil && row == fresh.row(at: position), "row \(position) as the store has it",
                sourceLocation: sourceLocation)
        }
    }

    @Test func editsThatMoveNothingReadOnlyTheirRows() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let model = list(here)
        model.moveSelection(to: 100)
        let onScreen = model.visibleLines.compactMap(\.row)
        let edited = onScreen[onScreen.count / 2]
        let offScreen = try #require(model.row(at: 5))
        var changes = ItemChanges()
        changes.quantity = 9
        try there.editItem(edited.id.description, changes)
        try there.setListed(offScreen.id, false)  // off screen, and one fewer listed
        try thereSync.sync()
        let imported = try importChanges(hereSync, into: here)
        #expect(imported.updatedItems == [edited.id, offScreen.id])

        let fetches = model.indexFetches
        let selected = model.selectedID
        let top = model.scrollTop
        #expect(model.apply(imported))
        #expect(model.indexFetches == fetches, "the order was not fetched again")
        #expect(model.inPlaceRefreshes == 1)
        #expect(model.changedRows == [edited.id], "the one row on screen that changed")
        #expect(model.listedCount == 199)
        #expect(model.selectedID == selected && model.scrollTop == top)
        expectSameAsAFreshFetch(model, here)
        #expect(!model.refreshIfChanged(), "the list is current: the next poll reads nothing")
    }

    @Test func anEditThatMovesAnItemOrAnAddedItemFetchesEverything() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let model = list(here)
        let first = try #require(model.row(at: 0))
        var rename = ItemChanges()
        rename.name = "Zucchini"  // from the top of its section to the bottom
        try there.editItem(first.id.description, rename)
        try thereSync.sync()
        var fetches = model.indexFetches
        model.apply(try importChanges(hereSync, into: here))
        #expect(model.indexFetches == fetches + 1)
        #expect(model.inPlaceRefreshes == 0)
        expectSameAsAFreshFetch(model, here)

        var move = ItemChanges()
        move.homeLocation = "Location 02"
        try there.editItem(try #require(model.row(at: 0)).id.description, move)
        try there.addItem(ItemDraft(name: "Apples"))
        try thereSync.sync()
        let imported = try importChanges(hereSync, into: here)
        #expect(imported.otherEntities.contains(GrocerySchema.Entity.item), "an item was added")
        fetches = model.indexFetches
        model.apply(imported)
        #expect(model.indexFetches == fetches + 1)
        expectSameAsAFreshFetch(model, here)
    }

    @Test func aSaveBesideTheImportMakesTheListFetchEverything() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let model = list(here)
        let row = try #require(model.row(at: 3))
        try there.setCollected(row.id, true)
        try thereSync.sync()
        let imported = try importChanges(hereSync, into: here)
        try here.addItem(ItemDraft(name: "Added by a command meanwhile"))

        let fetches = model.indexFetches
        model.apply(imported)
        #expect(model.indexFetches == fetches + 1, "the command's save is read too")
        #expect(model.index.count == 201)
        expectSameAsAFreshFetch(model, here)

        // A save during the import's round (between the two readings) is seen the same way.
        try there.setCollected(row.id, false)
        try thereSync.sync()
        let before = try here.changeCounts()
        try here.addItem(ItemDraft(name: "Another"))
        let report = try hereSync.importPending()
        let during = StoreChanges(BackgroundImport(report, before: before, after: try here.changeCounts()))
        #expect(during.tokenBefore == nil, "not the import's alone")
        model.apply(during)
        #expect(model.index.count == 202)
    }

    @Test func manyChangesFetchEverything() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let model = list(here)
        for position in 0...ItemListViewModel.inPlaceLimit {
            try there.setCollected(try #require(model.row(at: position)).id, true)
        }
        try thereSync.sync()
        let fetches = model.indexFetches
        model.apply(try importChanges(hereSync, into: here))
        #expect(model.indexFetches == fetches + 1)
        expectSameAsAFreshFetch(model, here)
    }

    @Test func shopReadsACollectedRowButFetchesWhenAnItemLeavesTheList() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let all = list(here)
        for position in 3..<all.rowCount { try here.setListed(try #require(all.row(at: position)).id, false) }
        try hereSync.sync()
        let shop = list(here, .shop)
        #expect(shop.rowCount == 3)
        let first = try #require(shop.row(at: 0))
        let second = try #require(shop.row(at: 1))
        try there.setCollected(first.id, true)
        try thereSync.sync()
        var fetches = shop.indexFetches
        #expect(shop.apply(try importChanges(hereSync, into: here)))
        #expect(shop.indexFetches == fetches)
        #expect(shop.row(at: 0)?.item.collected == true)

        try there.setListed(second.id, false)
        try thereSync.sync()
        fetches = shop.indexFetches
        shop.apply(try importChanges(hereSync, into: here))
        #expect(shop.indexFetches == fetches + 1, "it left the list")
        #expect(shop.rowCount == 2)
    }

    @Test func aToggleReadsOnlyItsRow() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.fill(items: 100, locations: 3)
        let model = list(store)
        model.moveSelection(to: 10)
        let fetches = model.indexFetches
        model.toggleSelected()
        #expect(model.indexFetches == fetches, "a toggle reads its row, not the order")
        #expect(model.selectedRow?.item.listed == false)
        #expect(model.listedCount == 99)
        #expect(model.message == "Unlisted \(model.selectedRow!.name)")
        expectSameAsAFreshFetch(model, store)
        #expect(!model.refreshIfChanged())

        model.onlyListed = true
        let listedFetches = model.indexFetches
        model.toggleSelected()  // unlisted: it leaves the filtered list
        #expect(model.indexFetches == listedFetches + 1)
        #expect(model.rowCount == 98)
    }

    @Test func catalogsFetchOnlyWhenTheChangesTouchThem() throws {
        let (here, hereSync, there, thereSync) = try peers()
        let units = CatalogListViewModel(store: here, kind: .unit)
        let homes = CatalogListViewModel(store: here, kind: .home)
        units.refreshIfChanged()
        homes.refreshIfChanged()
        try there.renameEntry(.home, "Location 01", to: "Cellar")
        try thereSync.sync()
        let imported = try importChanges(hereSync, into: here)
        let unitFetches = units.fetches
        let homeFetches = homes.fetches
        units.apply(imported)
        homes.apply(imported)
        #expect(units.fetches == unitFetches, "a home location's rename does not touch units")
        #expect(homes.fetches == homeFetches + 1)
        #expect(homes.entries.contains { $0.name == "Cellar" })
        #expect(!units.refreshIfChanged(), "and the units screen is current")
    }

    @Test func anEditOnAnotherDeviceReachesTheAppRunningLiveSyncAsOneRow() throws {
        func device(_ name: String) throws -> AppModel {
            let config = try StoreConfiguration.temporary(in: directory, device: name)
            try config.changeSettings { $0.cloudEnabled = true }
            let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
            #expect(try CloudSetup.run(config, account: "default"))
            try coordinator.finishSetup()
            return AppModel(coordinator: coordinator)
        }
        let kitchen = try device("kitchen")
        let phone = try device("phone")
        let oats = try phone.coordinator.current.store.addItem(ItemDraft(name: "Porridge oats"))
        phone.coordinator.current.exportPending()
        kitchen.coordinator.current.importPending()
        kitchen.start()
        defer { kitchen.stop() }
        try kitchen.update { !kitchen.prepare.isDeduplicating }
        #expect(kitchen.prepare.index.ids.contains(oats.id))

        let fetches = kitchen.prepare.indexFetches
        var changes = ItemChanges()
        changes.quantity = 3
        try phone.coordinator.current.store.editItem(oats.id.description, changes)
        phone.coordinator.current.exportPending()
        try kitchen.update { kitchen.prepare.inPlaceRefreshes > 0 || kitchen.prepare.indexFetches > fetches }
        #expect(kitchen.prepare.inPlaceRefreshes == 1, "the import's one row was read")
        #expect(kitchen.prepare.indexFetches == fetches, "not the list's order")
        let position = try #require(kitchen.prepare.index.ids.firstIndex(of: oats.id))
        #expect(kitchen.prepare.row(at: position)?.item.quantity == 3)
        #expect(kitchen.statusMessage == "1 change from phone")
    }

    @Test func theAppHandsAnImportToTheScreenShown() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        let store = app.coordinator.current.store
        try store.fill(items: 20, locations: 2)
        app.show(.prepare)
        let row = try #require(app.prepare.row(at: 0))
        let before = try store.objects.changeToken()
        var changes = ItemChanges()
        changes.quantity = 4
        try store.editItem(row.id.description, changes)
        let known = StoreChanges(
            updatedItems: [row.id], tokenBefore: before, tokenAfter: try store.objects.changeToken())
        app.handle(.imported(count: 1, devices: ["phone"], changes: known))
        #expect(app.prepare.inPlaceRefreshes == 1)
        #expect(app.prepare.row(at: 0)?.item.quantity == 4)
        #expect(app.statusMessage == "1 change from phone")
    }
}
