import Foundation
import TestSupport
import Testing

/// A device's own past is input too: its data folder restored from a backup must not make it
/// overwrite logs it had already published.
@Suite("A device restored from a backup")
struct DevicePastTests {
    let directory = TemporaryDirectory("device-past")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    @Test func aRestoredDeviceNeverOverwritesWhatItPublishedAndLosesNothing() throws {
        let a = device("a")
        let b = device("b")
        try a.output(["cloud", "enable"])
        try b.output(["cloud", "enable"])
        for index in 1...3 { try a.output(["item", "add", "Item \(index)"]) }
        let sandbox = directory.url.appendingPathComponent("devices/a")
        let backup = directory.url.appendingPathComponent("backup-of-a")
        try FileManager.default.copyItem(at: sandbox, to: backup)
        for index in 4...5 { try a.output(["item", "add", "Item \(index)"]) }
        try b.output(["cloud", "sync"])
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        let peer = try #require(
            try FileManager.default.contentsOfDirectory(atPath: logs.path).first {
                (try? FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent($0).path).count) == 5
            })
        let published = try (1...5).map {
            try Data(contentsOf: logs.appendingPathComponent("\(peer)/000000000\($0).gdlog"))
        }

        // The data folder comes back from the backup; offline, the user adds an item.
        try FileManager.default.removeItem(at: sandbox)
        try FileManager.default.copyItem(at: backup, to: sandbox)
        try a.output(["cloud", "offline"])
        try a.output(["item", "add", "Made after the restore"])
        let online = try a.run(["cloud", "online"])
        #expect(online.status == 0, "\(online.stderr)")

        // What a had published is untouched; its new change comes after it.
        for (index, data) in published.enumerated() {
            #expect(
                try Data(contentsOf: logs.appendingPathComponent("\(peer)/000000000\(index + 1).gdlog")) == data,
                "log \(index + 1)")
        }
        let all = ["Item 1", "Item 2", "Item 3", "Item 4", "Item 5", "Made after the restore"]
        #expect(try a.itemNames() == all, "a got back what it had published after the backup")
        #expect(try b.itemNames() == all)
        #expect(try device("c").itemNames() == [], "a new device starts empty until it enables sync")
        try device("c").output(["cloud", "enable"])
        #expect(try device("c").itemNames() == all)
        #expect(try a.output(["cloud", "status"]).contains("historyRecovered"))
    }

    /// The peer ID in a device's `device.json`.
    func peerID(dataDirectory: URL, device: String) throws -> String {
        let data = try Data(contentsOf: dataDirectory.appendingPathComponent("devices/\(device)/device.json"))
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["peerID"] as? String)
    }

    @Test(arguments: [true, false])
    func aCopyOfADeviceInUseElsewhereTakesAnIdentityOfItsOwn(originalWritesFirst: Bool) throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Before the copy"])
        let identity = try peerID(dataDirectory: directory.url, device: "a")
        // The data folder is copied to another machine, sharing the same cloud folder.
        let otherMachine = directory.url.appendingPathComponent("other-machine")
        try FileManager.default.createDirectory(
            at: otherMachine.appendingPathComponent("devices"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("devices/a"), to: otherMachine.appendingPathComponent("devices/a"))
        let copy = CommandRunner(
            dataDirectory: otherMachine.path, device: "a",
            environment: CommandRunner.withoutDefaultData.merging(
                ["GROCERY_DUDE_CLOUD": directory.url.appendingPathComponent("Cloud").path]) { _, new in new })

        let (first, second) = originalWritesFirst ? (a, copy) : (copy, a)
        try first.output(["item", "add", originalWritesFirst ? "From the original" : "From the copy"])
        let noticed = try second.run(["item", "add", originalWritesFirst ? "From the copy" : "From the original"])
        #expect(noticed.status == 0, "the save is kept: \(noticed.stderr)")
        #expect(
            noticed.stderr.contains("identity of its own") || noticed.stderr.contains("its own (peer"),
            "\(noticed.stderr)")
        try second.output(["cloud", "sync"])
        try first.output(["cloud", "sync"])

        let all = ["Before the copy", "From the copy", "From the original"]
        #expect(try a.itemNames() == all)
        #expect(try copy.itemNames() == all)
        let renewed = try peerID(dataDirectory: originalWritesFirst ? otherMachine : directory.url, device: "a")
        let kept = try peerID(dataDirectory: originalWritesFirst ? directory.url : otherMachine, device: "a")
        #expect(renewed != identity && kept == identity)
        #expect(try second.output(["cloud", "status"]).contains("identityRenewed"))

        // Under the shared identity, one log per number, each written once; the new identity
        // numbers from 1.
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(identity).path).sorted()
                == ["0000000001.gdlog", "0000000002.gdlog"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(renewed).path).sorted()
                == ["0000000001.gdlog"])
        try device("b").output(["cloud", "enable"])
        #expect(try device("b").itemNames() == all)
    }
}
