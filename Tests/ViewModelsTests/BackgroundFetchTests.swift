import Foundation
import GroceryModel
import TestSupport
import Testing

@testable import ViewModels

/// A large list learns of a change made elsewhere on another thread: the UI thread keeps
/// showing what it has, then shows the new order when it arrives — unless a new query or a new
/// store made it stale.
@Suite("Lists fetched in the background")
struct BackgroundFetchTests {
    let directory = TemporaryDirectory("background-fetch")

    /// Prepare over `store` with a mailbox, fetching in the background from `rows` rows on.
    func list(_ store: GroceryStore, from rows: Int = 1) -> (ItemListViewModel, Mailbox<AppEvent>) {
        let mailbox = Mailbox<AppEvent>()
        let model = ItemListViewModel(store: store, device: "here", screen: .prepare, mailbox: mailbox)
        model.backgroundFetchRows = rows
        model.setViewport(height: 12)
        model.refreshIfChanged()
        return (model, mailbox)
    }

    func nextFetch(_ mailbox: Mailbox<AppEvent>) throws -> ItemListFetch {
        // The mailbox's wait paces the loop: it returns as soon as a message arrives.
        let fetch = try Poll.until(
            every: 0,
            reading: {
                mailbox.wait(timeout: 0.05).compactMap { event -> ItemListFetch? in
                    if case .listFetched(let fetch) = event { fetch } else { nil }
                }.first
            }, { _ in "a background fetch in the mailbox" }
        ) { $0 != nil }
        return fetch!
    }

    @Test func aChangeMadeElsewhereIsShownWhenItsOrderArrives() throws {
        let store = try GroceryStore.temporary(in: directory)
        for name in ["Milk", "Tea"] { try store.addItem(ItemDraft(name: name)) }
        let (model, mailbox) = list(store)
        #expect(model.allNames == ["Milk", "Tea"])

        try store.addItem(ItemDraft(name: "Bread"))  // as another process would
        let fetches = model.indexFetches
        #expect(!model.refreshIfChanged(inBackground: true), "nothing read on this thread")
        #expect(!model.refreshIfChanged(inBackground: true), "one fetch at a time")
        #expect(model.allNames == ["Milk", "Tea"], "the list shows what it had meanwhile")
        let fetch = try nextFetch(mailbox)
        #expect(model.receive(fetch))
        #expect(model.allNames == ["Bread", "Milk", "Tea"])
        #expect(model.indexFetches == fetches + 1)
        #expect(!model.refreshIfChanged(inBackground: true), "current: nothing more to fetch")
    }

    /// The first screen of a large list: its first rows at once, in the whole order's order, with
    /// the whole list's counts; the whole order when it arrives from another thread. Names
    /// outside ASCII sort as the whole order sorts them (not as SQL does), items of no location
    /// come last; Prepare's "only listed" and Shop are cut short the same way.
    @Test func theFirstScreenOfALargeListShowsItsFirstRowsThenTheWholeOrder() throws {
        let store = try GroceryStore.temporary(in: directory)
        let names = ["éclair", "Eclair", "Zucchini", "apple", "Åland cheese", "Oat milk"]
        for index in 0..<(ItemListViewModel.firstPageRows + 60) {
            var draft = ItemDraft(name: index < names.count ? names[index] : "Item \(index)")
            draft.homeLocation = index % 5 == 4 ? nil : ["Fridge", "Pantry 10", "Pantry 2", "Freezer"][index % 5 % 4]
            draft.shopLocation = ["Dairy", "Aisle 3"][index % 2]
            draft.listed = index % 3 == 0
            try store.addItem(draft)
        }
        for (screen, onlyListed) in [(ItemListViewModel.Screen.prepare, false), (.prepare, true), (.shop, true)] {
            let mailbox = Mailbox<AppEvent>()
            let model = ItemListViewModel(store: store, device: "here", screen: screen, mailbox: mailbox)
            model.firstPageFromRows = 100
            model.setViewport(height: 12)
            if onlyListed, screen == .prepare {
                model.onlyListed = true  // fetches anew
            } else {
                #expect(model.refreshIfChanged())
            }
            let whole = try store.itemIndex(model.query)
            let page = model.index
            #expect(page.firstPageOf == whole.count, "\(screen) \(onlyListed)")
            #expect(model.rowCount == min(whole.count, ItemListViewModel.firstPageRows))
            #expect(model.totalRows == whole.count)
            #expect(
                model.listedCount == (onlyListed ? whole.listedCount : nil), "a list of every item counts them later")
            #expect(Array(page.ids) == Array(whole.ids.prefix(page.count)), "the whole order's first rows")
            #expect(page.sections.map(\.title) == Array(whole.sections.map(\.title).prefix(page.sections.count)))
            #expect(page.sections.map(\.total) == Array(whole.sections.map(\.count).prefix(page.sections.count)))
            #expect(model.receive(try nextFetch(mailbox)))
            #expect(model.index == whole, "then the whole order")
        }
        // A small store is fetched whole at once.
        let small = ItemListViewModel(store: store, device: "here", screen: .prepare, mailbox: Mailbox<AppEvent>())
        small.refreshIfChanged()
        #expect(small.index.firstPageOf == nil && small.rowCount == ItemListViewModel.firstPageRows + 60)
    }

    /// What a fetch costs is the items it scans, not the rows it shows: Shop with one item listed
    /// of many, or a search that finds one, fetches in the background too.
    @Test func aFewRowsOfALargeStoreAreFetchedInTheBackgroundToo() throws {
        let store = try GroceryStore.temporary(in: directory)
        for name in ["Milk", "Tea", "Bread"] { try store.addItem(ItemDraft(name: name)) }
        try store.setListed("Tea", false)
        try store.setListed("Bread", false)
        let mailbox = Mailbox<AppEvent>()
        let shop = ItemListViewModel(store: store, device: "here", screen: .shop, mailbox: mailbox)
        shop.backgroundFetchRows = 3
        shop.refreshIfChanged()
        #expect(shop.rowCount == 1 && shop.index.itemsInStore == 3)
        try store.setListed("Tea", true)
        #expect(!shop.refreshIfChanged(inBackground: true), "three items in the store: on another thread")
        #expect(shop.receive(try nextFetch(mailbox)))
        #expect(shop.allNames == ["Milk", "Tea"])

        let (prepare, prepareMailbox) = list(store, from: 3)
        prepare.searchText = "bread"
        #expect(prepare.allNames == ["Bread"] && prepare.index.itemsInStore == 3)
        try store.setListed("Bread", true)
        #expect(!prepare.refreshIfChanged(inBackground: true))
        #expect(prepare.receive(try nextFetch(prepareMailbox)))
        #expect(prepare.allNames == ["Bread"])
    }

    @Test func aSmallListFetchesAtOnce() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.addItem(ItemDraft(name: "Milk"))
        let (model, mailbox) = list(store, from: 5_000)
        try store.addItem(ItemDraft(name: "Tea"))
        #expect(model.refreshIfChanged(inBackground: true))
        #expect(model.allNames == ["Milk", "Tea"])
        #expect(mailbox.take().isEmpty)
    }

    @Test func anOrderMadeStaleByANewSearchOrAnOlderOneIsDropped() throws {
        let store = try GroceryStore.temporary(in: directory)
        for name in ["Milk", "Tea"] { try store.addItem(ItemDraft(name: name)) }
        let (model, mailbox) = list(store)
        try store.addItem(ItemDraft(name: "Bread"))
        model.refreshIfChanged(inBackground: true)
        let stale = try nextFetch(mailbox)
        model.searchText = "tea"  // fetched at once, for the new query
        #expect(model.allNames == ["Tea"])
        #expect(!model.receive(stale), "fetched for the query before")
        #expect(model.allNames == ["Tea"])

        // Fetched before a change the list has already shown: dropped too.
        model.searchText = ""
        try store.addItem(ItemDraft(name: "Salt"))
        model.refreshIfChanged(inBackground: true)
        let older = try nextFetch(mailbox)
        try store.addItem(ItemDraft(name: "Jam"))
        model.refreshIfChanged()  // the user's own action fetches at once
        #expect(!model.receive(older))
        #expect(model.allNames == ["Bread", "Jam", "Milk", "Salt", "Tea"])
    }

    @Test func anOrderFromTheStoreBeforeATransitionIsDropped() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.addItem(ItemDraft(name: "Milk"))
        let (model, mailbox) = list(store)
        try store.addItem(ItemDraft(name: "Tea"))
        model.refreshIfChanged(inBackground: true)
        let fetch = try nextFetch(mailbox)
        let other = try GroceryStore(path: directory.file("other.sqlite").path, defaultData: false)
        try other.addItem(ItemDraft(name: "Rice"))
        model.storeWillChange("Switching account…")
        #expect(!model.receive(fetch))
        model.storeDidChange(to: other, message: "Signed in")
        #expect(!model.receive(fetch))
        #expect(model.allNames == ["Rice"])
    }
}
