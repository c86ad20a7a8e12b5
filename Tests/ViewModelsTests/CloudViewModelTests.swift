import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

@testable import StoreLifecycle
@testable import ViewModels

/// The Cloud screen's state and actions against real devices sharing a cloud folder.
@Suite("The Cloud screen's view model")
struct CloudViewModelTests {
    let directory = TemporaryDirectory("cloud-screen")

    func app(
        _ device: String, cloudEnabled: Bool = true, clock: any WallClock = SystemWallClock(), modelVersion: Int? = nil
    ) throws -> AppModel {
        var config = try StoreConfiguration.temporary(in: directory, device: device)
        if let modelVersion { config.modelVersion = modelVersion }
        if cloudEnabled { try config.changeSettings { $0.cloudEnabled = true } }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true }, clock: clock)
        if cloudEnabled {
            #expect(try CloudSetup.run(config, account: "default"))
            try coordinator.finishSetup()
        }
        return AppModel(coordinator: coordinator)
    }

    @Test func theStatusShowsTheSettingStoreAndPendingLogs() throws {
        let app = try app("kitchen")
        app.show(.cloud)
        let status = try #require(app.cloud.status)
        #expect(status.enabled && status.account == "default" && status.device == "kitchen")
        #expect(status.role == .cloud && !status.usingLocalStorage)
        #expect(status.modelVersion == GrocerySchema.currentVersion)
        #expect(status.transitions.first?.transition == "initialImportCompleted")
        app.cloud.setOffline(true)
        try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.cloud.refresh(force: true)
        #expect(app.cloud.status?.cloud?.offline == true)
        #expect(app.cloud.status?.cloud?.pendingExport == 1)
        // Set offline by the user: the screen says which key undoes it, not a command.
        #expect(app.cloud.rows.contains(.field(label: "Offline", value: "yes (set offline: o goes online)", .warning)))
        app.cloud.syncNow()
        #expect(app.cloud.message == "Offline: go online first")
        app.cloud.setOffline(false)
        app.cloud.syncNow()
        try app.update { app.cloud.message?.hasPrefix("Synced") == true }
        #expect(app.cloud.message == "Synced: exported 1 log, imported 0")
        #expect(app.cloud.status?.cloud?.pendingExport == 0)
        #expect(app.cloud.status?.cloud?.lastSync != nil)
    }

    /// A device still on an older model version does not sync with this one: the Cloud screen
    /// names it, and says when its changes will come.
    @Test func aDeviceOnAnOlderModelVersionIsNamed() throws {
        let laptop = try app("laptop", modelVersion: 2)
        try laptop.coordinator.current.store.addItem(ItemDraft(name: "Tea"))
        laptop.cloud.syncNow()
        try laptop.update { laptop.cloud.message?.hasPrefix("Synced") == true }
        let kitchen = try app("kitchen")
        kitchen.show(.cloud)
        #expect(
            kitchen.cloud.rows.contains(
                .field(
                    label: "Other version",
                    value: "device \"laptop\" is on an older version (model 2): its changes arrive when it updates",
                    .plain)), "\(kitchen.cloud.rows)")
        // And the other way round, once the kitchen published: a newer version, to look at.
        try kitchen.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        kitchen.cloud.syncNow()
        try kitchen.update { kitchen.cloud.message?.hasPrefix("Synced") == true }
        laptop.show(.cloud)
        #expect(
            laptop.cloud.rows.contains(
                .field(
                    label: "Other version",
                    value: "device \"kitchen\" is on a newer version (model 3): update this device to see its changes",
                    .warning)), "\(laptop.cloud.rows)")
    }

    /// A share that is not mounted leaves an empty folder at the cloud folder's path: the status
    /// line says so by itself, the Cloud screen says why, and nothing is written there.
    @Test func aFolderThatIsNotTheSyncedOneIsShownOnTheStatusLineAndTheCloudScreen() throws {
        let app = try app("kitchen")
        let cloud = app.coordinator.configuration.cloud
        let away = directory.file("share-unmounted")
        app.start()
        defer { app.stop() }
        try app.update(until: { app.summary.cloudOn && !app.summary.usingLocalStorage })
        try FileManager.default.moveItem(at: cloud, to: away)
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)  // the bare mount point
        try app.update(until: { app.summary.otherCloudFolder })
        #expect(app.summary.offline && app.summary.otherCloudFolder)
        app.show(.cloud)
        app.cloud.refresh(force: true)
        #expect(
            app.cloud.status?.cloud?.offlineReason?.contains(
                "is not the one this device synced with (is the share mounted?)") == true)
        try app.coordinator.current.store.addItem(ItemDraft(name: "While unmounted"))
        #expect(app.coordinator.current.exportPending() == 0, "the save waits on the device")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cloud.path).isEmpty,
            "nothing is written into the mount point")
        // Mounted again: online, and the save goes out.
        try FileManager.default.removeItem(at: cloud)
        try FileManager.default.moveItem(at: away, to: cloud)
        try app.update(until: { !app.summary.offline })
        #expect(!app.summary.otherCloudFolder)
        try app.update(until: { (try? app.coordinator.current.cloudLink?.pendingExports()) == 0 })
        #expect(
            try app.coordinator.current.cloudLink?.pendingExports() == 0, "the save went out once the share was back")
    }

    @Test func aRefusedLogIsShownAndSkippedOnlyAfterConfirming() throws {
        let kitchen = try app("kitchen")
        let phone = try app("phone")
        try phone.coordinator.current.store.addItem(ItemDraft(name: "Tea"))
        try phone.coordinator.current.store.addItem(ItemDraft(name: "Rice"))
        let phoneSync = try #require(phone.coordinator.current.sync)
        // The phone's first log now holds a quantity no peer accepts (an older build, say).
        let url = phoneSync.layout.logURL(peer: phoneSync.peer, seq: 1)
        let log = try LogFile.read(at: url, expecting: phoneSync.layout, peer: phoneSync.peer, seq: 1)
        var change = log.record.inserted[0]
        change.values["quantity"] = .double(-1)
        let bad = TransactionRecord(
            transactionID: log.record.transactionID, timestamp: log.record.timestamp, author: "old build",
            inserted: [change], updated: [], deleted: [], clock: log.record.clock)
        try LogFile.encode(bad, layout: phoneSync.layout, peer: phoneSync.peer, device: "phone", seq: 1).write(to: url)

        kitchen.coordinator.current.importPending()
        kitchen.cloud.refresh(force: true)
        #expect(kitchen.cloud.status?.cloud?.refused.map(\.seq) == [1])
        kitchen.refreshSummary(force: true)
        #expect(kitchen.summary.refusedFiles == 1)
        kitchen.cloud.requestRelease()
        guard case .confirm(let title, let message?, _)? = kitchen.cloud.dialog else {
            Issue.record("no confirmation")
            return
        }
        #expect(title == "Skip the Refused Log?")
        #expect(message.contains("quantity: -1 is negative") && message.contains("1 new object"))
        kitchen.cloud.answerDialog(false)
        #expect(kitchen.cloud.status?.cloud?.refused.count == 1, "cancelled: still held")
        kitchen.cloud.requestRelease()
        kitchen.cloud.answerDialog(true)
        try kitchen.update { kitchen.cloud.message?.hasPrefix("Synced") == true }
        #expect(try kitchen.coordinator.current.store.items().map(\.name) == ["Rice"])
        #expect(kitchen.cloud.status?.cloud?.refused.isEmpty == true)
        #expect(kitchen.coordinator.transitions.first?.transition == "peerReleased")
    }

    @Test func signingInAndOutSwitchesStoresWithoutThePreferenceNotice() throws {
        let app = try app("kitchen")
        #expect(throws: CloudError.self, "an invalid account name is refused") { try app.cloud.signIn("../evil") }
        #expect(app.coordinator.current.account == "default")
        try app.cloud.signIn("bravo")
        #expect(app.coordinator.current.account == "bravo")
        #expect(app.notice == nil, "the user's own change is no surprise")
        app.cloud.signOut()
        #expect(app.coordinator.current.role == .local)
        #expect(app.cloud.status?.account == nil)
    }

    @Test func startOverNeedsThePhraseTypedAndEmptiesTheOtherDevice() throws {
        let pacing = TestClock()
        let kitchen = try app("kitchen")
        let phone = try app("phone", clock: pacing)
        try kitchen.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        kitchen.coordinator.current.exportPending()
        phone.coordinator.current.importPending()
        phone.show(.prepare)
        #expect(phone.prepare.rowCount == 1)

        kitchen.show(.cloud)
        kitchen.cloud.requestStartOver()
        guard case .typedConfirmation(_, _, let phrase, _)? = kitchen.dialog else {
            Issue.record("expected a typed confirmation, got \(String(describing: kitchen.dialog))")
            return
        }
        #expect(phrase == "start over")
        kitchen.answerTyped("yes")
        #expect(kitchen.cloud.message?.hasPrefix("Not confirmed: type \"start over\"") == true)
        #expect(kitchen.dialog != nil, "a mistyped phrase keeps the dialog open")
        #expect(try kitchen.coordinator.current.store.items().count == 1)
        kitchen.cancelDialog()
        #expect(kitchen.dialog == nil && kitchen.cloud.message == "Not confirmed; nothing was deleted")

        var progress: [Dialog] = []
        kitchen.cloud.redraw = { progress.append(kitchen.dialog!) }
        kitchen.cloud.requestStartOver()
        kitchen.answerTyped("Start Over")
        #expect(kitchen.cloud.message?.hasPrefix("Started over: epoch 2") == true)
        #expect(progress.first == .progress(title: "Starting over", done: 0, total: 0))
        #expect(
            progress.contains {
                if case .progress(_, let done, let total) = $0 { total > 0 && done == total } else { false }
            })
        #expect(try kitchen.coordinator.current.store.items().isEmpty)

        // The other device notices at its next poll: its store moves aside, Prepare empties.
        pacing.advance(by: 1.1)  // epoch markers are looked at once a second
        phone.update()
        #expect(phone.prepare.rowCount == 0)
        #expect(phone.coordinator.transitions.first?.transition == "contentRemoved")
    }

    @Test func rebuildAndDisableAskFirstAndKeepTheData() throws {
        let app = try app("kitchen")
        try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.coordinator.current.exportPending()
        app.show(.cloud)
        app.cloud.requestRebuild()
        #expect(app.dialog?.title == "Rebuild from the Cloud?")
        app.answerDialog(false)
        #expect(app.dialog == nil && app.coordinator.transitions.first?.transition != "rebuilt")
        app.cloud.requestRebuild()
        app.answerDialog(true)
        #expect(app.coordinator.transitions.first?.transition == "rebuilt")
        #expect(try app.coordinator.current.store.items().map(\.name) == ["Milk"])

        app.cloud.requestDisable()
        app.answerDialog(true)
        #expect(app.coordinator.current.role == .local)
        #expect(try app.coordinator.current.store.items().map(\.name) == ["Milk"])
        app.show(.prepare)
        #expect(app.prepare.rowCount == 1)
    }
}
