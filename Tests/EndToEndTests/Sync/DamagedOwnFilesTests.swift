import Foundation
import TestSupport
import Testing

/// A damaged file of the device's own is kept aside and rebuilt from what its stores and its
/// history tell: the data stays visible, sync keeps its state, and the device keeps its identity.
@Suite("Damaged files of the device's own")
struct DamagedOwnFilesTests {
    let directory = TemporaryDirectory("damaged-own")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func status(_ device: CommandRunner) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try device.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
    }

    /// Files beside `file` whose names say they are its damaged copies.
    func keptCopies(of file: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: file.deletingLastPathComponent(), includingPropertiesForKeys: nil
        )
        .filter { $0.lastPathComponent.hasPrefix(file.lastPathComponent + ".damaged-") }
    }

    @Test(arguments: ["{\"account\": \"home\", \"cloudEna", "", "\u{0}\u{0}\u{0}\u{0}", "[1, 2, 3]"])
    func aDamagedSettingsFileIsRebuiltFromTheStores(damage: String) throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] {
            try peer.output(["account", "sign-in", "home"])
            try peer.output(["cloud", "enable"])
        }
        try a.output(["item", "add", "Bread"])
        #expect(try b.itemNames() == ["Bread"])
        let settings = directory.file("devices/a/settings.json")
        let before = try String(contentsOf: settings, encoding: .utf8)
        try Data(damage.utf8).write(to: settings)

        // A read works, shows the account's data, and the state is what it was.
        #expect(try a.itemNames() == ["Bread"])
        let state = try status(a)
        #expect(state["enabled"] as? Bool == true && state["account"] as? String == "home")
        #expect(state["offline"] as? Bool == false, "the cloud folder's ID came back from the store: \(state)")
        let rebuilt = try JSONSerialization.jsonObject(with: Data(contentsOf: settings)) as! [String: Any]
        let original = try JSONSerialization.jsonObject(with: Data(before.utf8)) as! [String: Any]
        #expect(rebuilt["cloudFolderIDs"] as? [String: [String]] == original["cloudFolderIDs"] as? [String: [String]])
        // What was damaged is kept, and the history says so.
        let copies = try keptCopies(of: settings)
        #expect(copies.count == 1)
        #expect(try copies.first.map { try Data(contentsOf: $0) } == Data(damage.utf8))
        #expect(try a.output(["cloud", "status"]).contains("settingsRebuilt"))
        // Sync goes on both ways.
        try a.output(["item", "add", "Milk"])
        try b.output(["item", "add", "Eggs"])
        #expect(try a.itemNames() == ["Bread", "Eggs", "Milk"])
        #expect(try b.itemNames() == ["Bread", "Eggs", "Milk"])
    }

    @Test func settingsRebuiltAfterCloudSyncWasTurnedOffKeepTheLocalStore() throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Tea"])
        try a.output(["cloud", "disable"])
        try a.output(["item", "add", "Local Only"])
        try Data("garbage".utf8).write(to: directory.file("devices/a/settings.json"))
        #expect(try a.itemNames() == ["Local Only", "Tea"])
        let state = try status(a)
        #expect(state["enabled"] as? Bool == false && state["account"] as? String == "default")
    }

    @Test(arguments: ["", "{\"peerID\": \"not an id\"}", "\u{0}\u{0}"])
    func aDamagedIdentityTakesBackThePeerIDTheStoresSavedUnder(damage: String) throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "Bread"])
        let peerID = try status(a)["peerID"] as! String
        let identity = directory.file("devices/a/device.json")
        try Data(damage.utf8).write(to: identity)

        #expect(try status(a)["peerID"] as? String == peerID, "the same identity, never a new one")
        #expect(try keptCopies(of: identity).count == 1)
        try a.output(["item", "add", "Milk"])
        #expect(try b.itemNames() == ["Bread", "Milk"])
        // Its logs stay one device's: numbered on, in its one folder.
        let logs = directory.file("Cloud/default/GroceryDude/v3/epoch-1/logs")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.path).filter { !$0.hasPrefix(".") } == [peerID])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(peerID).path)
                .filter { !$0.hasPrefix(".") }.sorted() == ["0000000001.gdlog", "0000000002.gdlog"])
    }
}
