import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing

/// `DeviceBackup` in one process: what `backup` and `restore` promise end to end
/// (EndToEndTests/Backup), tested on the type itself.
@Suite("Device backups, in process")
struct DeviceBackupTests {
    let directory = TemporaryDirectory("device-backup")

    func device(_ name: String) throws -> StoreConfiguration {
        try StoreConfiguration.temporary(in: directory, device: name)
    }

    func backupFolder(_ name: String) -> URL { directory.file("backups/\(name)") }

    /// The item names in the device's local store.
    func itemNames(_ configuration: StoreConfiguration) throws -> [String] {
        let store = try configuration.openStore(at: configuration.localStoreURL)
        defer { try? store.close() }
        return try store.items().map(\.name)
    }

    func addItem(_ name: String, _ configuration: StoreConfiguration) throws {
        let store = try configuration.openStore(at: configuration.localStoreURL)
        defer { try? store.close() }
        try store.addItem(ItemDraft(name: name))
    }

    /// Every file under `folder`, as relative paths with their bytes.
    func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func aBackupHoldsWhatWasSavedWhileTheStoreIsOpenAndRestoringBringsItBack() throws {
        let a = try device("a")
        let store = try a.openStore(at: a.localStoreURL)
        try store.addItem(ItemDraft(name: "Before"))
        let wal = try FileManager.default.attributesOfItem(atPath: a.localStoreURL.path + "-wal")[.size] as? Int
        #expect((wal ?? 0) > 0, "the save is still in the write-ahead log, where a copy of the file alone misses it")

        let written = try DeviceBackup.write(a.sandbox, to: backupFolder("a"))
        try store.addItem(ItemDraft(name: "After"))
        try store.close()
        #expect(written.manifest.device == "a")
        #expect(written.manifest.stores == ["local/GroceryDude.sqlite"])
        #expect(written.manifest.files.contains("device.json"))
        #expect(
            !(written.manifest.stores + written.manifest.files).contains {
                $0.hasSuffix("-wal") || $0 == "device.lock"
            },
            "neither SQLite's side files nor locks: \(written.manifest)")

        let backup = try DeviceBackup(reading: backupFolder("a"))
        #expect(backup.manifest.stores == written.manifest.stores && backup.manifest.files == written.manifest.files)
        #expect(abs(backup.manifest.created.timeIntervalSince(written.manifest.created)) < 1, "kept to the second")
        let restoredAt = Date(timeIntervalSince1970: 1_800_000_000)
        let aside = try #require(try backup.restore(into: a.sandbox, now: restoredAt), "the device's folder is kept")
        #expect(try itemNames(a) == ["Before"])
        #expect(try a.sandbox.peerID() == a.peer, "the device keeps its identity")
        #expect(aside.deletingLastPathComponent().path == directory.file("replaced-devices").path)
        #expect(aside.lastPathComponent == "a 2027-01-15 08.00.00")
        var kept = a
        kept.sandbox = try DeviceSandbox(dataDirectory: directory.file("kept"), device: "a")
        try FileManager.default.createDirectory(
            at: kept.sandbox.root.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: aside, to: kept.sandbox.root)
        #expect(try itemNames(kept) == ["After", "Before"], "nothing the device held was deleted")
    }

    @Test func aDeviceRestoredOnANewMachineGetsItsIdentityAndKeepsNothingAside() throws {
        let a = try device("a")
        try addItem("Bread", a)
        try DeviceBackup.write(a.sandbox, to: backupFolder("a"))

        let newMachine = try DeviceSandbox(dataDirectory: directory.file("new-machine"), device: "a")
        #expect(try DeviceBackup(reading: backupFolder("a")).restore(into: newMachine) == nil)
        #expect(try newMachine.peerID() == a.peer, "the same device, not a new one")
        var restored = a
        restored.sandbox = newMachine
        #expect(try itemNames(restored) == ["Bread"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("new-machine/replaced-devices").path))
    }

    @Test func badBackupsAndWrongTargetsAreRefusedAndChangeNothing() throws {
        let a = try device("a")
        try addItem("Bread", a)
        try DeviceBackup.write(a.sandbox, to: backupFolder("good"))
        let before = try snapshot(a.sandbox.root)

        #expect(throws: DeviceBackupError.exists(backupFolder("good").path), "never over an existing folder") {
            try DeviceBackup.write(a.sandbox, to: backupFolder("good"))
        }
        let empty = try DeviceSandbox(dataDirectory: directory.url, device: "new")
        #expect(throws: DeviceBackupError.nothingToBackUp(device: "new")) {
            try DeviceBackup.write(empty, to: backupFolder("new"))
        }
        #expect(!FileManager.default.fileExists(atPath: backupFolder("new").path))

        try FileManager.default.createDirectory(at: backupFolder("empty"), withIntermediateDirectories: true)
        #expect(throws: DeviceBackupError.notABackup(backupFolder("empty").path)) {
            try DeviceBackup(reading: backupFolder("empty"))
        }

        /// A copy of the good backup, changed by `damage`, and why reading it is refused.
        func refusal(_ name: String, _ damage: (URL) throws -> Void) throws -> String? {
            try FileManager.default.copyItem(at: backupFolder("good"), to: backupFolder(name))
            try damage(backupFolder(name))
            do {
                _ = try DeviceBackup(reading: backupFolder(name))
                return nil
            } catch DeviceBackupError.damaged(_, let reason) {
                return reason
            }
        }
        let garbled = try refusal("garbled") { folder in
            let store = folder.appendingPathComponent("local/GroceryDude.sqlite")
            var data = try Data(contentsOf: store)
            for index in stride(from: 4096, to: data.count, by: 7) { data[index] ^= 0x5A }
            try data.write(to: store)
        }
        #expect(garbled?.contains("the store local/GroceryDude.sqlite is damaged") == true, "\(garbled ?? "read")")
        let escaping = try refusal("escaping") { folder in
            let manifest = folder.appendingPathComponent(DeviceBackup.manifestName)
            let text = try String(contentsOf: manifest, encoding: .utf8)
            try text.replacingOccurrences(of: "\"device.json\"", with: "\"..\\/..\\/device.json\"")
                .write(to: manifest, atomically: true, encoding: .utf8)
        }
        #expect(escaping?.contains("outside the device's folder") == true, "\(escaping ?? "read")")
        let missing = try refusal("missing") { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("device.json"))
        }
        #expect(missing == "device.json is missing")

        let c = try device("c")
        let cBefore = try snapshot(c.sandbox.root)
        #expect(throws: DeviceBackupError.otherDevice(backup: "a", device: "c"), "two devices of one identity") {
            try DeviceBackup(reading: backupFolder("good")).restore(into: c.sandbox)
        }
        #expect(try snapshot(c.sandbox.root) == cBefore)
        #expect(try snapshot(a.sandbox.root) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.file("replaced-devices").path))
    }
}
