import Foundation
import TestSupport
import Testing

/// `backup` and `restore`: the safe way to keep a copy of a device and put it back.
@Suite("Backing up and restoring a device")
struct BackupRestoreTests {
    let directory = TemporaryDirectory("backup-restore")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func backupFolder(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    @Test func aRestoredCloudDeviceGetsBackWhatItPublishedAfterTheBackup() throws {
        let a = device("a")
        let b = device("b")
        try a.output(["cloud", "enable"])
        try b.output(["cloud", "enable"])
        for index in 1...3 { try a.output(["item", "add", "Item \(index)"]) }
        #expect(try a.output(["backup", backupFolder("a-backup")]).contains("1 store"))
        for index in 4...5 { try a.output(["item", "add", "Item \(index)"]) }
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        let published = try FileManager.default.contentsOfDirectory(atPath: logs.path).flatMap { peer in
            try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(peer).path).map {
                "\(peer)/\($0)"
            }
        }.sorted()
        let bytes = try published.map { try Data(contentsOf: logs.appendingPathComponent($0)) }

        // Without a terminal and without --yes, nothing happens.
        let unconfirmed = try a.run(["restore", backupFolder("a-backup")])
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--yes"))
        #expect(try a.itemNames().count == 5)

        let restored = try a.output(["restore", backupFolder("a-backup"), "--yes"])
        #expect(restored.contains("kept in"))
        #expect(
            try a.itemNames() == ["Item 1", "Item 2", "Item 3", "Item 4", "Item 5"],
            "what a published after the backup came back")
        try a.output(["item", "add", "After the restore"])
        for (path, data) in zip(published, bytes) {
            #expect(try Data(contentsOf: logs.appendingPathComponent(path)) == data, "\(path) is never replaced")
        }
        try b.output(["cloud", "sync"])
        #expect(try b.itemNames() == ["After the restore", "Item 1", "Item 2", "Item 3", "Item 4", "Item 5"])
        #expect(try a.output(["cloud", "status"]).contains("restored"))
    }

    @Test func aDeviceRestoredOnANewMachineCatchesUpAndGoesOn() throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Before the backup"])
        try a.output(["backup", backupFolder("a-backup")])
        try a.output(["item", "add", "After the backup"])
        // The machine is lost; a new one shares the same cloud folder and gets the backup.
        let cloud = directory.url.appendingPathComponent("Cloud").path
        let newMachine = CommandRunner(
            dataDirectory: directory.url.appendingPathComponent("new-machine").path, device: "a",
            environment: CommandRunner.withoutDefaultData.merging(["GROCERY_DUDE_CLOUD": cloud]) { _, new in new })
        let restored = try newMachine.output(["restore", backupFolder("a-backup"), "--yes"])
        #expect(!restored.contains("kept in"), "nothing was there to keep: \(restored)")
        #expect(try newMachine.itemNames() == ["After the backup", "Before the backup"])
        try newMachine.output(["item", "add", "On the new machine"])
        try device("b").output(["cloud", "enable"])
        #expect(try device("b").itemNames() == ["After the backup", "Before the backup", "On the new machine"])
    }

    @Test func aLocalDeviceComesBackAsItWasAndItsLaterFolderIsKeptAside() throws {
        let a = device("a")
        try a.output(["item", "add", "Before"])
        try a.output(["backup", backupFolder("local-backup")])
        try a.output(["item", "add", "After"])
        try a.output(["restore", backupFolder("local-backup"), "--yes"])
        #expect(try a.itemNames() == ["Before"])
        let aside = directory.url.appendingPathComponent("replaced-devices")
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: aside.path).first)
        // The folder as it was opens as a device of its own: nothing was deleted.
        let keptDevice = CommandRunner(
            dataDirectory: directory.path, device: "kept", environment: CommandRunner.withoutDefaultData)
        try FileManager.default.moveItem(
            at: aside.appendingPathComponent(kept), to: directory.url.appendingPathComponent("devices/kept"))
        #expect(try keptDevice.itemNames() == ["After", "Before"])
    }

    @Test func badBackupsAndWrongTargetsChangeNothing() throws {
        let a = device("a")
        try a.output(["item", "add", "Bread"])
        try a.output(["backup", backupFolder("good")])
        // Never over an existing folder.
        let again = try a.run(["backup", backupFolder("good")])
        #expect(again.status != 0 && again.stderr.contains("exists already"))

        // Not a backup at all.
        try FileManager.default.createDirectory(atPath: backupFolder("empty"), withIntermediateDirectories: true)
        let empty = try a.run(["restore", backupFolder("empty"), "--yes"])
        #expect(empty.status != 0 && empty.stderr.contains("not a Grocery Dude device backup"))

        // A damaged store: its bytes garbled after the header.
        try FileManager.default.copyItem(atPath: backupFolder("good"), toPath: backupFolder("damaged"))
        let store = URL(fileURLWithPath: backupFolder("damaged")).appendingPathComponent("local/GroceryDude.sqlite")
        var data = try Data(contentsOf: store)
        for index in stride(from: 4096, to: data.count, by: 7) { data[index] ^= 0x5A }
        try data.write(to: store)
        let damaged = try a.run(["restore", backupFolder("damaged"), "--yes"])
        #expect(damaged.status != 0 && damaged.stderr.contains("damaged"), "\(damaged.stderr)")

        // A manifest that names a file outside the backup.
        try FileManager.default.copyItem(atPath: backupFolder("good"), toPath: backupFolder("escaping"))
        let manifest = URL(fileURLWithPath: backupFolder("escaping")).appendingPathComponent("backup.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(
            of: "\"device.json\"", with: "\"..\\/..\\/device.json\"")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let escaping = try a.run(["restore", backupFolder("escaping"), "--yes"])
        #expect(escaping.status != 0 && escaping.stderr.contains("outside"), "\(escaping.stderr)")

        // Another device's backup would make two devices of one identity.
        let other = try device("c").run(["restore", backupFolder("good"), "--yes"])
        #expect(other.status != 0 && other.stderr.contains("--device \"a\""), "\(other.stderr)")

        try a.output(["item", "add", "Milk"])
        #expect(try a.itemNames() == ["Bread", "Milk"])
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("replaced-devices").path))
    }
}
