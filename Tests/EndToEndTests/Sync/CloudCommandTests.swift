import Foundation
import TestSupport
import Testing

/// Devices as real processes on one cloud folder.
@Suite("Cloud sync from the command line")
struct CloudCommandTests {
    let directory = TemporaryDirectory("cloud-cli")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func enabledPair() throws -> (CommandRunner, CommandRunner) {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        return (kitchen, phone)
    }

    @Test func whatOneDeviceDoesTheOtherSees() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Oat Milk", "--qty", "2", "--unit", "L", "--home-location", "Fridge"])
        var seen = try phone.items()
        #expect(seen.map { $0["name"] as! String } == ["Oat Milk"])
        #expect(seen.first?["unit"] as? String == "L" && seen.first?["homeLocation"] as? String == "Fridge")

        try phone.output(["item", "edit", "oat milk", "--qty", "3"])
        try phone.output(["item", "add", "Bread"])
        seen = try kitchen.items()
        #expect(seen.map { $0["name"] as! String } == ["Bread", "Oat Milk"])
        #expect(seen.last?["quantity"] as? Double == 3)

        try kitchen.output(["item", "rm", "bread"])
        try kitchen.output(["unit", "rm", "L"])
        seen = try phone.items()
        #expect(seen.map { $0["name"] as! String } == ["Oat Milk"])
        #expect(seen.first?["unit"] is NSNull)
        #expect(try phone.output(["export"]) == (try kitchen.output(["export"])))
    }

    @Test func concurrentEditsConvergeOnBothDevices() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Tea"])
        try phone.output(["cloud", "sync"])
        // Both edit before seeing the other's edit: the phone works with an unreachable cloud
        // folder (a path through a file), so its saves wait in its outbox.
        let blocker = directory.file("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let elsewhere = blocker.path + "/Cloud"
        try phone.output(["--cloud", elsewhere, "item", "edit", "tea", "--qty", "5"])
        try kitchen.output(["item", "edit", "tea", "--name", "Green Tea"])
        try phone.output(["--cloud", elsewhere, "item", "edit", "tea", "--unit", "box"])
        #expect(try phone.run(["--cloud", elsewhere, "item", "ls"]).status == 0)
        // Back on the shared folder: the phone's saves were kept in its outbox, now exported.
        try phone.output(["cloud", "sync"])
        try kitchen.output(["cloud", "sync"])
        try phone.output(["cloud", "sync"])
        let onKitchen = try kitchen.items()
        let onPhone = try phone.items()
        #expect(onKitchen.count == 1)
        #expect(onKitchen.first?["name"] as? String == "Green Tea")
        #expect(onKitchen.first?["quantity"] as? Double == 5)
        #expect(onKitchen.first?["unit"] as? String == "box")
        #expect(try kitchen.output(["export"]) == (try phone.output(["export"])))
        #expect(onPhone.first?["id"] as? String == onKitchen.first?["id"] as? String)
    }

    @Test func enablingOverLocalDataAsksWhatToDo() throws {
        // First launch with the default data in the local store; the cloud gets none.
        try CommandRunner(dataDirectory: directory.path, device: "kitchen").output(["item", "ls"])
        let kitchen = device("kitchen")
        let refused = try kitchen.run(["cloud", "enable"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("pass --merge to copy it into the cloud, or --no-merge"), "\(refused.stderr)")
        #expect(try kitchen.output(["cloud", "status", "--json"]).contains("\"enabled\": false"))

        try kitchen.output(["cloud", "enable", "--no-merge"])
        #expect(try kitchen.items().isEmpty, "the cloud store starts empty; the local data stays aside")
        try kitchen.output(["item", "add", "Cloud Thing"])
        let disabled = try kitchen.output(["cloud", "disable"])
        #expect(disabled.contains("back to this device's own local data"), "\(disabled)")
        #expect(try kitchen.items().count == 138, "the default data the user chose not to merge, as it was")
        try kitchen.output(["cloud", "enable", "--no-merge"])
        #expect(
            try kitchen.items().map { $0["name"] as! String } == ["Cloud Thing"],
            "the cloud's data kept in the cloud store")

        let phone = device("phone")
        try phone.output(["item", "add", "Phone Only Thing"])
        let merged = try phone.output(["cloud", "enable", "--merge"])
        #expect(merged.contains("Merged local data into the cloud"))
        try kitchen.output(["cloud", "enable", "--no-merge"])
        #expect(try kitchen.items().contains { $0["name"] as? String == "Phone Only Thing" })
    }

    @Test func accountsKeepTheirOwnStores() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Default Thing"])
        #expect(try kitchen.output(["account", "sign-in", "work"]).contains("Signed in to account \"work\""))
        #expect(try kitchen.items().isEmpty)
        try kitchen.output(["item", "add", "Work Thing"])
        #expect(try phone.items().map { $0["name"] as! String } == ["Default Thing"])
        let status = try kitchen.output(["account", "status", "--json"])
        #expect(status.contains("\"account\": \"work\""))
        try kitchen.output(["account", "sign-out"])
        #expect(try kitchen.output(["cloud", "status", "--json"]).contains("\"usingLocalStorage\": 1"))
        try kitchen.output(["account", "sign-in", "default"])
        #expect(try kitchen.items().map { $0["name"] as! String } == ["Default Thing"])
        let badName = try kitchen.run(["account", "sign-in", ".hidden"])
        #expect(badName.status != 0 && badName.stderr.hasPrefix("Error: invalid account name"))
    }

    @Test func cloudStatusReportsWhatIsPending() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Milk"])
        try kitchen.output(["item", "add", "Eggs"])
        let status = try phone.output(["--cloud", directory.file("empty").path, "cloud", "status", "--json"])
        #expect(status.contains("\"pendingImport\": 0"))
        let text = try kitchen.output(["cloud", "status"])
        #expect(text.contains("Using local storage: 0"))
        #expect(text.contains("Pending export:      0 logs"))
        let sync = try phone.output(["cloud", "sync"])
        #expect(sync.hasPrefix("Synced: exported 0 logs"))
    }

    @Test(arguments: ["after-commit", "mid-log-write"])
    func aKilledProcessLosesNothingAndDuplicatesNothing(_ fault: String) throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Before"])
        let killed = try kitchen.run(["item", "add", "Crashed"], environment: ["GROCERY_DUDE_FAULT": fault])
        #expect(killed.status != 0, "the process was killed")
        // The save was committed; its log is exported by the next command, once.
        #expect(try kitchen.items().map { $0["name"] as! String } == ["Before", "Crashed"])
        try kitchen.output(["cloud", "sync"])
        try kitchen.output(["cloud", "sync"])
        #expect(try phone.items().map { $0["name"] as! String } == ["Before", "Crashed"])
        let logs = try FileManager.default.subpathsOfDirectory(atPath: directory.path + "/Cloud")
            .filter { $0.hasSuffix(".gdlog") }
        #expect(logs.count == 2, "\(logs)")
        #expect(try phone.output(["export"]) == (try kitchen.output(["export"])))
    }

    @Test func aNewDeviceJoinsFromABaseline() throws {
        let (kitchen, phone) = try enabledPair()
        for name in ["Milk", "Eggs", "Bread"] { try kitchen.output(["item", "add", name]) }
        #expect(try kitchen.output(["cloud", "baseline", "--grace-hours", "0"]).contains("removed 3 covered logs"))
        try kitchen.output(["item", "add", "Tea"])
        let tablet = device("tablet")
        try tablet.output(["cloud", "enable"])
        #expect(try tablet.items().map { $0["name"] as! String } == ["Bread", "Eggs", "Milk", "Tea"])
        #expect(try phone.output(["export"]) == (try tablet.output(["export"])))
    }

    @Test func rebuildingLosesNothingAndDuplicatesNothing() throws {
        let (kitchen, phone) = try enabledPair()
        for name in ["Milk", "Eggs"] { try kitchen.output(["item", "add", name]) }
        try phone.output(["item", "add", "Bread"])
        try kitchen.output(["cloud", "baseline", "--grace-hours", "0"])
        try kitchen.output(["item", "edit", "milk", "--qty", "2"])
        let before = try kitchen.output(["export"])
        #expect(try kitchen.output(["cloud", "rebuild"]).hasPrefix("Rebuilt from the cloud: 3 items"))
        #expect(try kitchen.output(["export"]) == before)
        try kitchen.output(["item", "add", "Tea"])
        #expect(try phone.items().map { $0["name"] as! String } == ["Bread", "Eggs", "Milk", "Tea"])
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: directory.path + "/devices/kitchen/ubiquity/default/GroceryDude/kept")
        #expect(kept.contains { $0.hasPrefix("before-rebuild-") && $0.hasSuffix(".sqlite") }, "\(kept)")
    }

    @Test func offlineChangesWaitAndReachTheOtherDeviceOnceOnline() throws {
        let (kitchen, phone) = try enabledPair()
        #expect(try kitchen.output(["cloud", "offline"]).hasPrefix("Offline"))
        try kitchen.output(["item", "add", "Made Offline"])
        try phone.output(["item", "add", "Made On The Phone"])
        #expect(try phone.items().map { $0["name"] as! String } == ["Made On The Phone"], "nothing left the kitchen")
        #expect(try kitchen.items().map { $0["name"] as! String } == ["Made Offline"], "nothing came in")
        let status = try kitchen.output(["cloud", "status", "--json"])
        #expect(status.contains("\"offline\": true") && status.contains("\"pendingExport\": 1"))
        let refused = try kitchen.run(["cloud", "sync"])
        #expect(refused.status != 0 && refused.stderr.contains("offline"))

        #expect(try kitchen.output(["cloud", "online"]).hasPrefix("Online"))
        #expect(try kitchen.items().map { $0["name"] as! String } == ["Made Offline", "Made On The Phone"])
        #expect(try phone.items().map { $0["name"] as! String } == ["Made Offline", "Made On The Phone"])
    }

    @Test func aMissingCloudFolderCountsAsOfflineAndIsNeverCreated() throws {
        let mount = directory.file("mnt-share").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["--cloud", mount, "cloud", "enable"])
        try phone.output(["--cloud", mount, "cloud", "enable"])
        // The share is unmounted: the mount point is gone (or empty and unwritable). Its
        // content is elsewhere meanwhile, and comes back whole when it is mounted again.
        let away = directory.file("mnt-share-away").path
        try FileManager.default.moveItem(atPath: mount, toPath: away)
        let result = try kitchen.run(["--cloud", mount, "item", "add", "While Unmounted"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mount), "nothing was written where the share should be")
        #expect(
            try kitchen.output(["--cloud", mount, "cloud", "status"]).contains(
                "yes (the cloud folder \(mount) does not exist: create it"))
        // Mounted again: the change goes out with the next command.
        try FileManager.default.moveItem(atPath: away, toPath: mount)
        try kitchen.output(["--cloud", mount, "item", "ls"])
        let names =
            try JSONSerialization.jsonObject(
                with: Data(try phone.output(["--cloud", mount, "item", "ls", "--json"]).utf8)) as! [[String: Any]]
        #expect(names.map { $0["name"] as! String } == ["While Unmounted"])
    }

    @Test func modelVersionsDoNotSyncUntilTheOlderPeerUpgrades() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["--model-version", "1", "cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["--model-version", "1", "item", "add", "Old Tea"])
        try phone.output(["item", "add", "New Coffee", "--note", "only version 2 has notes"])
        #expect(try kitchen.itemNames(["--model-version", "1"]) == ["Old Tea"], "version 1 sees nothing of version 2")
        #expect(try phone.itemNames() == ["New Coffee"], "version 2 sees nothing of version 1")

        // The kitchen upgrades (a run of the newer app migrates its store).
        #expect(try kitchen.itemNames() == ["New Coffee", "Old Tea"])
        #expect(try phone.itemNames() == ["New Coffee", "Old Tea"])
        try kitchen.output(["item", "edit", "old tea", "--note", "upgraded"])
        #expect(try phone.output(["export"]) == (try kitchen.output(["export"])))
    }

    /// A device that has never saved but wrote a baseline (as the live watcher does after 500
    /// logs) learns its own published history before each export, and that import applies other
    /// devices' logs too: what it applied is counted like any import, never swallowed.
    @Test func whatAnExportImportedOnTheWayIsToldLikeAnyImport() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["cloud", "sync"])
        try phone.output(["cloud", "baseline"])
        try kitchen.output(["item", "add", "Tea"])
        try kitchen.output(["item", "add", "Bread"])
        // Before, this said "imported 0 (0 objects changed)" while it had imported both.
        #expect(try phone.output(["cloud", "sync"]).contains("imported 2 (2 objects changed)"))
    }
}
