import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

@testable import StoreLifecycle
@testable import ViewModels

/// The app's list switcher against a real coordinator and real stores: a named list opens
/// through a transition like an account switch, and every screen refetches from its store.
@Suite("Switching lists in the app")
struct ListSwitcherTests {
    /// Two lists made apart under one name are shown apart: who made each, and its store.
    @Test func listsThatShareANameShowWhoMadeThemAndTheirStores() {
        let lists = [
            NamedList(storeName: "GroceryDude", name: "Groceries"),
            NamedList(storeName: "Dinner-1a2b3c", name: "Dinner", createdBy: "kitchen"),
            NamedList(storeName: "dinner-4d5e6f", name: "dinner", createdBy: "phone"),
            NamedList(storeName: "Camping-0f0f0f", name: "Camping", createdBy: "kitchen"),
        ]
        let switcher = ListSwitcher(lists: lists, current: "GroceryDude")
        #expect(
            switcher.labels == [
                "Groceries", "Dinner (by kitchen, store Dinner-1a2b3c)", "dinner (by phone, store dinner-4d5e6f)",
                "Camping", "new list…",
            ])
    }

    /// `+` offers to merge a list with the other of its name: the list on screen stays, as does
    /// the default list; a list whose name is its own offers nothing.
    @Test func theMergeOfferedKeepsTheListOnScreenAndTheDefaultList() {
        let kitchens = NamedList(storeName: "Dinner-1a2b3c", name: "Dinner", createdBy: "kitchen")
        let phones = NamedList(storeName: "dinner-4d5e6f", name: "dinner", createdBy: "phone")
        let groceries = NamedList(storeName: "GroceryDude", name: "Groceries")
        let renamed = NamedList(storeName: "groceries-777777", name: "groceries", createdBy: "phone")
        let lists = [groceries, renamed, kitchens, phones, NamedList(storeName: "Camping-0f0f0f", name: "Camping")]
        func offered(current: String, selecting store: String) -> [String]? {
            var switcher = ListSwitcher(lists: lists, current: current)
            switcher.move(to: lists.firstIndex { $0.storeName == store }!)
            return switcher.offeredMerge.map { [$0.from.storeName, $0.into.storeName] }
        }
        #expect(
            offered(current: kitchens.storeName, selecting: kitchens.storeName) == [
                phones.storeName, kitchens.storeName,
            ])
        #expect(
            offered(current: kitchens.storeName, selecting: phones.storeName) == [phones.storeName, kitchens.storeName])
        #expect(
            offered(current: "Camping-0f0f0f", selecting: phones.storeName) == [phones.storeName, kitchens.storeName],
            "neither on screen: the selected list goes into the other")
        #expect(
            offered(current: renamed.storeName, selecting: renamed.storeName) == [
                renamed.storeName, groceries.storeName,
            ],
            "the default list is never merged away")
        #expect(offered(current: kitchens.storeName, selecting: "Camping-0f0f0f") == nil)
        var switcher = ListSwitcher(lists: lists, current: kitchens.storeName)
        switcher.move(to: Int.max)
        #expect(switcher.offeredMerge == nil && switcher.mergeHint == nil, "new list… offers nothing")
    }

    let directory = TemporaryDirectory("list-switcher")

    @Test func switchingGoesThroughWillAndDidChangeAndEveryScreenRefetches() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let camping = try NamedLists(configuration: config).create("Camping")
        var campingConfig = config
        campingConfig.storeName = camping.storeName
        var tent = ItemDraft(name: "Tent pegs")
        tent.homeLocation = "Shed"
        let campingStore = try campingConfig.openStore(at: campingConfig.localStoreURL)
        try campingStore.addItem(tent)
        try campingStore.objects.close()
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.show(.prepare)
        app.update()
        #expect(app.prepare.rowCount == 1)
        #expect(app.summary.list == nil, "the default list is not named on the status line")

        var seen: [String] = []
        app.coordinator.subscribe { message in
            switch message {
            case .storesWillChange:
                seen.append("will: input \(app.isInputEnabled ? "on" : "off"), \(app.changingNotice ?? "")")
            case .storesDidChange: seen.append("did: input \(app.isInputEnabled ? "on" : "off")")
            case .storesChangePostponed, .imported, .problem, .seedProgress, .otherListSynced, .listGone: break
            }
        }
        app.openListSwitcher()
        let switcher = try #require(app.listSwitcher)
        #expect(switcher.options.map(\.label) == ["Groceries", "Camping", "new list…"])
        #expect(switcher.selection == 0, "the list on screen is selected")
        #expect(app.typeAheadInListSwitcher("c"))
        #expect(!app.typeAheadInListSwitcher("z", now: Message.now + 5), "nothing matches: the selection stays")
        #expect(app.listSwitcher?.selected.label == "Camping")
        #expect(app.chooseInListSwitcher() == false)
        #expect(app.listSwitcher == nil)
        #expect(seen == ["will: input off, Opening the list…", "did: input on"])
        #expect(app.coordinator.configuration.storeName == camping.storeName)
        app.update()
        #expect(app.prepare.rowCount == 1)
        #expect(try app.coordinator.current.store.items().map(\.item.name) == ["Tent pegs"])
        app.show(.homeLocations)
        app.update()
        #expect(app.homeLocations.entries.map(\.name) == ["Shed"], "every screen reads the new list's store")
        app.refreshSummary(force: true)
        #expect(app.summary.list == "Camping")
        #expect(app.statusMessage == "List: Camping")
    }

    @Test func aNewListFromTheSwitcherOpensEmptyAndABadNameChangesNothing() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.openListSwitcher()
        app.moveListSwitcher(to: 99)
        #expect(app.listSwitcher?.selected == .new)
        #expect(app.chooseInListSwitcher() == true, "new list… asks for a name")
        #expect(throws: NamedListError.self) { try app.createList(named: "groceries") }
        #expect(throws: NamedListError.self) { try app.createList(named: "  ") }
        #expect(
            app.coordinator.configuration.storeName == GroceryStore.defaultStoreName, "a refused name opens nothing")
        #expect(app.listSwitcher != nil, "the switcher stays open")
        try app.createList(named: "Week-end at Anna's")
        #expect(app.listSwitcher == nil)
        #expect(app.listName == "Week-end at Anna's")
        #expect(try app.coordinator.current.store.items().isEmpty)
        #expect(try NamedLists(configuration: config).all().map(\.name) == ["Groceries", "Week-end at Anna's"])
    }
}
