import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

@testable import StoreLifecycle
@testable import ViewModels

/// The whole app's state against a real coordinator and real stores: transitions reaching every
/// screen, the save loop with the editor, dedup on Prepare's appearance, the merge prompt and
/// its progress, and the notice of a preference changed elsewhere.
@Suite("The app's view model")
struct AppModelTests {
    let directory = TemporaryDirectory("app")

    func app(_ configuration: StoreConfiguration) throws -> AppModel {
        AppModel(coordinator: try StoreCoordinator(configuration: configuration, claimDevice: { true }))
    }

    @Test func aTransitionMidEditSavesTheEditDisablesInputThenRefetches() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        try config.changeSettings { $0.cloudEnabled = true }
        let app = try app(config)
        #expect(app.coordinator.current.role == .fallback)
        let milk = try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.show(.prepare)
        #expect(app.prepare.rowCount == 1)
        app.prepare.select(milk.id)
        app.openEditor(milk.id)
        let editor = try #require(app.editor)
        try editor.set(.quantity, "6")

        // What the screens see during the transition.
        var seen: [String] = []
        app.coordinator.subscribe { message in
            switch message {
            case .storesWillChange:
                seen.append("will: input \(app.isInputEnabled ? "on" : "off"), \(app.changingNotice ?? "")")
            case .storesDidChange: seen.append("did: input \(app.isInputEnabled ? "on" : "off")")
            case .storesChangePostponed, .imported, .problem, .seedProgress, .otherListSynced, .listGone: break
            }
        }
        // Another terminal signs the device in to another account.
        try config.changeSettings { $0.account = "bravo" }
        #expect(app.update())
        #expect(seen == ["will: input off, Switching account…", "did: input on"])
        #expect(app.isInputEnabled)

        // The edit was saved into the old store before it went away; the account's store does
        // not have the item, so the editor closed and said why.
        let old = try GroceryStore(path: config.fallbackStoreURL(account: "default").path, defaultData: false)
        #expect(try old.item(id: milk.id)?.item.quantity == 6)
        #expect(app.editor == nil)
        #expect(app.statusMessage?.contains("not in this store") == true)
        #expect(app.prepare.rowCount == 0, "Prepare refetched from the new store")
        #expect(app.notice == nil, "an account switch is not a change of the cloud sync preference")
        #expect(app.summary.account == "bravo")
    }

    @Test func theEditorsUnsavedEditsHoldATransitionBackWhileTheyCannotBeSaved() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        let store = app.coordinator.current.store
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        try store.addItem(ItemDraft(name: "Eggs"))
        app.openEditor(milk.id)
        try app.editor?.set(.name, "Eggs")  // taken: the save fails, the edit stays unsaved
        #expect(app.editor?.hasUnsavedChanges == true)
        try config.changeSettings {
            $0.account = "bravo"
            $0.cloudEnabled = true
        }
        app.update()
        #expect(app.coordinator.current.role == .local, "the transition waits rather than lose the edit")
        #expect(app.isInputEnabled, "input is back on, so the edit can be fixed")
        #expect(app.statusMessage?.contains("waits") == true)
        try app.editor?.set(.name, "Whole Milk")
        app.update()
        #expect(app.coordinator.current.role == .fallback, "once saved, the transition goes ahead")
        let local = try GroceryStore(path: config.localStoreURL.path, defaultData: false)
        #expect(try local.item(id: milk.id)?.name == "Whole Milk")
    }

    /// `q` or Esc leave at once with nothing unsaved; otherwise they ask: Save, Discard, or back
    /// to editing. A failed save keeps the editor as it was; Discard always leaves.
    @Test func leavingTheEditorAsksSaveOrDiscardAndNeverTrapsTheUser() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        let store = app.coordinator.current.store
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        let eggs = try store.addItem(ItemDraft(name: "Eggs"))
        app.show(.prepare)
        app.openEditor(milk.id)
        app.leaveEditor()
        #expect(app.editor == nil && app.dialog == nil, "nothing unsaved: it leaves at once")

        app.openEditor(milk.id)
        try app.editor?.set(.quantity, "4")
        app.leaveEditor()
        #expect(app.dialog?.title == "Unsaved changes to Milk")
        app.cancelDialog()
        #expect(app.dialog == nil && app.editor?.values[.quantity] == "4", "Esc goes back to editing, the edit intact")
        app.leaveEditor()
        app.answerDialog(false)
        #expect(app.editor == nil && app.statusMessage == "Changes to Milk discarded")
        #expect(try store.item(id: milk.id)?.item.quantity == 1, "Discard saves nothing")

        app.openEditor(milk.id)
        try app.editor?.set(.name, "Eggs")
        app.leaveEditor()
        app.answerDialog(true)  // Save: refused, the name is in use
        let editor = try #require(app.editor, "a failed save keeps the editor open")
        #expect(app.dialog == nil && editor.fieldError?.field == .name && editor.values[.name] == "Eggs")
        app.prepare.select(eggs.id)
        app.leaveEditor()
        app.answerDialog(false)
        #expect(app.editor == nil, "Discard leaves, whatever is wrong")
        #expect(try store.items().map(\.name).sorted() == ["Eggs", "Milk"])
        #expect(app.prepare.selectedID == milk.id, "back on the item edited")

        app.openEditor(milk.id)
        try app.editor?.set(.quantity, "2")
        app.leaveEditor()
        app.answerDialog(true)
        #expect(app.editor == nil && app.statusMessage == "Saved Milk")
        #expect(try store.item(id: milk.id)?.item.quantity == 2)
    }

    /// Only the newest message shows: the screen's own or an app-wide one, whichever is newer.
    @Test func theScreensMessageIsTheNewestOfItsOwnAndTheAppWideOnes() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        app.show(.prepare)
        try app.prepare.addItem(named: "Tea")
        #expect(app.screenMessage?.text == "Added Tea")
        app.undo()
        #expect(app.screenMessage?.text == app.statusMessage, "the app-wide message is newer")
        #expect(app.statusMessage == "Undid Added Tea", "undo covers adding")
        try app.prepare.addItem(named: "Tea")
        #expect(app.screenMessage?.text == app.prepare.message, "the screen's own is newer again")
        app.show(.units)
        #expect(app.screenMessage?.text == app.statusMessage, "another screen: only the app-wide one")
        try app.units.add("tin")
        #expect(app.screenMessage?.text == "Added tin")
    }

    @Test func theStatusLineNamesTheAccountOnScreenWhileASwitchWaits() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        try config.changeSettings {
            $0.account = "alpha"
            $0.cloudEnabled = true
        }
        let app = try app(config)
        app.refreshSummary(force: true)
        #expect(app.summary.account == "alpha")
        let store = app.coordinator.current.store
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        try store.addItem(ItemDraft(name: "Eggs"))
        app.openEditor(milk.id)
        try app.editor?.set(.name, "Eggs")  // cannot be saved: the switch waits
        try config.changeSettings { $0.account = "bravo" }
        app.update()
        app.refreshSummary(force: true)
        #expect(app.coordinator.current.account == "alpha")
        #expect(app.summary.account == "alpha", "the data on screen is still alpha's")
        try app.editor?.set(.name, "Whole Milk")
        app.update()
        app.refreshSummary(force: true)
        #expect(app.summary.account == "bravo")
        #expect(app.notice == nil, "no \"preference changed\" dialog for an account switch")
    }

    @Test func theStatusLineIsReadAgainAtMostOnceASecondByTheAppsClock() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let clock = TestClock()
        let app = AppModel(
            coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }, clock: clock))
        try config.changeSettings { $0.account = "alpha" }
        #expect(!app.refreshSummary(), "read when the app started, this second")
        clock.advance(by: 0.9)
        #expect(!app.refreshSummary())
        #expect(app.summary.account != "alpha")
        clock.advance(by: 0.1)
        #expect(app.refreshSummary(), "a second later")
        #expect(app.summary.account == "alpha")
    }

    @Test func anImportOnTheCloudScreenIsStampedByTheAppsClock() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let clock = TestClock()
        let app = AppModel(
            coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }, clock: clock))
        clock.advance(by: 90)
        app.handle(.imported(count: 2, devices: ["phone"]))
        #expect(app.cloud.recentImports.first?.at == clock.now())
        #expect(app.now == clock.now())
    }

    @Test func lastSyncFollowsEveryImportNotOnlyOneAMinute() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        try config.changeSettings { $0.cloudEnabled = true }
        try FileManager.default.createDirectory(at: config.cloud, withIntermediateDirectories: true)
        let app = try app(config)
        try app.coordinator.prepareForCommand()  // sets the cloud store up
        let sync = try #require(app.coordinator.current.sync)
        _ = try sync.importPending()
        app.refreshSummary(force: true)
        let first = try #require(app.summary.lastSync)
        // Back online a moment later (an import takes far longer than the wall clock's
        // microsecond): nothing new arrived.
        _ = try sync.importPending()
        app.refreshSummary(force: true)
        #expect(try #require(app.summary.lastSync) > first)
        #expect(try app.coordinator.status().cloud?.lastSync == app.summary.lastSync)
    }

    @Test func prepareDeduplicatesEachTimeItAppears() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        let store = app.coordinator.current.store
        // Two "Milk"s, as two devices that each added one would have after syncing.
        _ = try store.objects.save(author: "test") { context in
            for quantity in [1.0, 2.0] {
                try context.insert(
                    GrocerySchema.Entity.item, values: ["name": .string("Milk"), "quantity": .double(quantity)])
            }
        }
        app.show(.prepare)
        #expect(app.prepare.rowCount == 2, "shown at once; deduplication runs in the background")
        #expect(app.prepare.isDeduplicating)
        try app.update { !app.prepare.isDeduplicating }
        #expect(app.prepare.rowCount == 1)
        #expect(app.prepare.message == "Merged 1 duplicate")

        _ = try store.objects.save(author: "test") { context in
            try context.insert(GrocerySchema.Entity.item, values: ["name": .string("milk")])
        }
        app.show(.shop)
        app.show(.prepare)
        try app.update { !app.prepare.isDeduplicating }
        #expect(app.prepare.rowCount == 1, "appearing again deduplicates again")
    }

    @Test func enablingWithLocalDataAsksToMergeThenMergesWithProgress() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        try app.coordinator.current.store.fill(items: 1200, locations: 3)
        app.start()
        defer { app.stop() }
        app.show(.cloud)
        app.cloud.requestEnable()
        #expect(
            app.dialog
                == .choice(
                    title: "Merge with Cloud?", message: CloudMessages.mergeExplanation,
                    decline: "Don't Merge", accept: "Merge"))
        app.answerDialog(true)
        #expect(app.coordinator.current.role != .local)
        #expect(app.notice == nil, "the user's own change is no surprise")

        // The one-time setup finishes in the background, then the merge runs, showing progress.
        var progress: [Dialog] = []
        try app.update(until: {
            if case .progress? = app.dialog, progress.last != app.dialog { progress.append(app.dialog!) }
            return app.coordinator.current.role == .cloud && !app.cloud.isMerging
                && app.coordinator.pendingSeedSource == nil
        })
        #expect(app.coordinator.current.role == .cloud)
        #expect(
            progress.contains {
                if case .progress(_, let done, let total) = $0 { done > 0 && done <= total } else { false }
            })
        #expect(app.dialog == nil)
        #expect(app.cloud.message?.hasPrefix("Merged with the cloud") == true)
        #expect(try app.coordinator.current.store.items().count == 1200)
        #expect(
            !FileManager.default.fileExists(atPath: config.localStoreURL.path),
            "the local store was merged, then removed")
        app.show(.prepare)
        #expect(app.prepare.rowCount == 1200)
    }

    @Test func enablingFromAnotherTerminalShowsTheNoticeAndOffersTheMerge() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = try app(config)
        try app.coordinator.current.store.addItem(ItemDraft(name: "Local Milk"))
        try config.changeSettings { $0.cloudEnabled = true }
        app.update()
        #expect(app.coordinator.current.role == .fallback)
        #expect(app.dialog?.title == CloudMessages.mergeQuestion, "a cloud store loaded and local data exists")
        app.answerDialog(false)  // Don't Merge: the local data stays where it is
        #expect(
            app.dialog
                == .message(title: CloudMessages.preferenceChanged, message: CloudMessages.preferenceChangedExplanation)
        )
        app.answerDialog(true)
        #expect(app.dialog == nil)
        let local = try GroceryStore(path: config.localStoreURL.path, defaultData: false)
        #expect(try local.items().map(\.name) == ["Local Milk"])
    }
}
