import Foundation
import GRDB
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

/// The coordinator in one process: which store it opens, the notifications around each
/// transition, and the save loop.
@Suite("Store coordinator")
struct StoreCoordinatorTests {
    let directory = TemporaryDirectory("coordinator")

    func configuration(_ device: String) throws -> StoreConfiguration {
        try StoreConfiguration.temporary(in: directory, device: device)
    }

    func setSettings(_ configuration: StoreConfiguration, _ change: (inout DeviceSettings) -> Void) throws {
        try configuration.changeSettings(change)
    }

    /// Collects every transition message, as the app's UI thread would see them.
    final class Recorder: @unchecked Sendable {
        var notifications: [StoreMessage] = []
        var kinds: [String] {
            notifications.compactMap {
                switch $0 {
                case .storesWillChange(let change): "will \(change.transition.rawValue)"
                case .storesDidChange(let change): "did \(change.transition.rawValue)"
                case .storesChangePostponed(let change): "postponed \(change.transition.rawValue)"
                case .imported, .problem, .seedProgress, .otherListSynced, .listGone: nil
                }
            }
        }
    }

    @Test func aDeviceWithoutCloudSyncRunsOnItsLocalStore() throws {
        let config = try configuration("kitchen")
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        #expect(coordinator.current.role == .local)
        #expect(coordinator.current.usingLocalStorage)
        #expect(coordinator.current.description.path == config.localStoreURL.path)
    }

    @Test func enablingStartsOnTheFallbackAndTheSaveLoopRunsUntilTheAppHasSaved() throws {
        let config = try configuration("kitchen")
        try setSettings(config) { $0.cloudEnabled = true }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        #expect(coordinator.current.role == .fallback)
        try coordinator.current.store.addItem(ItemDraft(name: "Made On The Fallback"))

        // The app has two edits in progress; it saves one per will-change notice.
        var unsaved = ["Edit One", "Edit Two"]
        let recorder = Recorder()
        coordinator.hasUnsavedChanges = { !unsaved.isEmpty }
        coordinator.subscribe { [unowned coordinator] notification in
            recorder.notifications.append(notification)
            if case .storesWillChange = notification, !unsaved.isEmpty {
                _ = try? coordinator.current.store.addItem(ItemDraft(name: unsaved.removeFirst()))
            }
        }
        #expect(try CloudSetup.run(config, account: "default"))
        #expect(try coordinator.finishSetup())
        #expect(
            recorder.kinds == [
                "will initialImportCompleted", "will initialImportCompleted", "did initialImportCompleted",
            ])
        #expect(coordinator.current.role == .cloud)
        #expect(!coordinator.current.usingLocalStorage)
        #expect(try coordinator.current.store.items().map(\.name) == ["Edit One", "Edit Two", "Made On The Fallback"])
        #expect(!FileManager.default.fileExists(atPath: config.fallbackStoreURL(account: "default").path))
        #expect(coordinator.transitions.first?.transition == "initialImportCompleted")
        #expect(coordinator.transitions.first?.detail.hasPrefix("3 record(s) moved from the fallback store") == true)
    }

    @Test func aTransitionWaitsWhileTheAppCannotSave() throws {
        let config = try configuration("kitchen")
        try setSettings(config) { $0.cloudEnabled = true }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        var canSave = false
        let recorder = Recorder()
        coordinator.hasUnsavedChanges = { !canSave }
        coordinator.subscribe { recorder.notifications.append($0) }
        try CloudSetup.run(config, account: "default")
        #expect(try !coordinator.finishSetup())
        #expect(coordinator.current.role == .fallback, "still on the fallback: nothing of the app's was lost")
        #expect(!recorder.kinds.contains("did initialImportCompleted"))
        canSave = true
        #expect(try coordinator.finishSetup())
        #expect(recorder.kinds.last == "did initialImportCompleted")
    }

    @Test func aCommandThatCannotClaimTheDeviceNeverTouchesTheFallback() throws {
        let config = try configuration("kitchen")
        try setSettings(config) { $0.cloudEnabled = true }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { false })
        #expect(coordinator.current.role == .cloud)
        #expect(!FileManager.default.fileExists(atPath: config.fallbackStoreURL(account: "default").path))
    }

    @Test func settingsChangedElsewhereArePerformedByPoll() throws {
        let config = try configuration("kitchen")
        try setSettings(config) { $0.cloudEnabled = true }
        try CloudSetup.run(config, account: "default")
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        #expect(coordinator.current.role == .cloud)
        try coordinator.current.store.addItem(ItemDraft(name: "Default Thing"))
        let recorder = Recorder()
        coordinator.subscribe { recorder.notifications.append($0) }
        #expect(try !coordinator.poll(), "nothing changed")

        try setSettings(config) { $0.account = "work" }
        #expect(try coordinator.poll())
        #expect(recorder.kinds == ["will accountChanged", "did accountChanged"])
        guard case .storesDidChange(let change) = recorder.notifications.last else {
            Issue.record("no did-change")
            return
        }
        #expect(change.removed.map(\.description) == ["cloud store of account \"default\""])
        #expect(change.added.map(\.description) == ["cloud store of account \"work\""])
        #expect(coordinator.current.account == "work")
        #expect(try coordinator.current.store.items().isEmpty)

        try setSettings(config) { $0.account = nil }
        try coordinator.poll()
        #expect(recorder.kinds.suffix(2) == ["will accountRemoved", "did accountRemoved"])
        #expect(coordinator.current.role == .local)

        try setSettings(config) { $0.account = "default" }
        try coordinator.poll()
        #expect(recorder.kinds.suffix(2) == ["will accountAdded", "did accountAdded"])
        #expect(try coordinator.current.store.items().map(\.name) == ["Default Thing"])
        #expect(
            coordinator.transitions.map(\.transition).prefix(3) == ["accountAdded", "accountRemoved", "accountChanged"])
    }

    @Test func transitionsFollowFromSettings() {
        func settings(_ account: String?, _ enabled: Bool) -> DeviceSettings {
            var settings = DeviceSettings()
            settings.account = account
            settings.cloudEnabled = enabled
            return settings
        }
        #expect(StoreTransition.between(settings("a", true), settings("b", true)) == .accountChanged)
        #expect(StoreTransition.between(settings(nil, true), settings("a", true)) == .accountAdded)
        #expect(StoreTransition.between(settings("a", true), settings(nil, true)) == .accountRemoved)
        #expect(StoreTransition.between(settings("a", false), settings("a", true)) == .cloudEnabled)
        #expect(StoreTransition.between(settings("a", true), settings("a", false)) == .cloudDisabled)
        #expect(StoreTransition.between(settings("a", false), settings("b", false)) == nil, "local store either way")
        #expect(StoreTransition.between(settings(nil, false), settings("a", false)) == nil)
    }

    @Test func disablingLeavesAPlainLocalStoreWithEverything() throws {
        let config = try configuration("kitchen")
        try setSettings(config) { $0.cloudEnabled = true }
        try CloudSetup.run(config, account: "default")
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        for name in ["Milk", "Eggs"] {
            var draft = ItemDraft(name: name)
            draft.unit = "dozen"
            try coordinator.current.store.addItem(draft)
        }
        let result = try coordinator.disable()
        #expect(result.items == 2)
        #expect(coordinator.current.role == .local)
        let objects = coordinator.current.store.objects
        #expect(try objects.outbox().isEmpty, "no cloud metadata: nothing waits for export")
        #expect(try objects.metadata("initialImportCompleted") == nil)
        #expect(try objects.metadata("epoch") == nil)
        for table in ["item", "unit", "locationAtHome", "locationAtShop", "itemPhoto"] {
            #expect(
                try objects.read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE ubiquity_clocks IS NOT NULL")
                } == 0,
                "\(table)")
        }
        #expect(try objects.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM ubiquity_peer_state") } == 0)
        #expect(try coordinator.current.store.items().map(\.name) == ["Eggs", "Milk"])
        #expect(try coordinator.current.store.items().allSatisfy { $0.unitName == "dozen" })
        #expect(try !DeviceSettings.load(from: config.sandbox).cloudEnabled)
    }
}
