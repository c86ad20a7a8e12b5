import Foundation
import TestSupport
import Testing

/// A list renamed or removed while its device is offline keeps that change, with the time it was
/// made: it is published once the cloud folder is back, and concurrent changes resolve the same
/// way on every device. `cloud online` and `cloud status` count every list's waiting saves.
@Suite("Named lists changed offline")
struct NamedListsOfflineTests {
    let directory = TemporaryDirectory("lists-offline")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path + "/data", cloud: cloud)
    }

    func sharedCloud() throws -> (CommandRunner, CommandRunner) {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["lists", "new", "Weekly"])
        try a.output(["--list", "Weekly", "item", "add", "Oats"])
        #expect(try b.listNames() == ["Groceries", "Weekly"])
        return (a, b)
    }

    @Test func aRenameMadeOfflineIsPublishedWhenBackOnline() throws {
        let (a, b) = try sharedCloud()
        try a.output(["cloud", "offline"])
        try a.output(["lists", "rename", "Weekly", "Monthly"])
        #expect(try a.listNames() == ["Groceries", "Monthly"])
        try a.output(["cloud", "online"])
        for peer in [a, b, a] { #expect(try peer.listNames() == ["Groceries", "Monthly"], "\(peer.device)") }
        #expect(try b.itemNames(["--list", "Monthly"]) == ["Oats"])
    }

    @Test func aRemovalMadeOfflineIsPublishedAndIsFinal() throws {
        let (a, b) = try sharedCloud()
        try a.output(["cloud", "offline"])
        try a.output(["lists", "rm", "Weekly", "--yes"])
        try a.output(["cloud", "online"])
        for peer in [a, b] { #expect(try peer.listNames() == ["Groceries"], "\(peer.device)") }
        // A rename on the other device after the removal does not bring the list back.
        let renamed = try b.run(["lists", "rename", "Weekly", "Daily"])
        #expect(renamed.status != 0)
        for peer in [a, b] { #expect(try peer.listNames() == ["Groceries"], "\(peer.device)") }
    }

    @Test(arguments: [true, false])
    func twoRenamesResolveByTheirOwnTimeOnEveryDevice(offlineRenameFirst: Bool) throws {
        let (a, b) = try sharedCloud()
        try a.output(["cloud", "offline"])
        // a renames while offline; b renames online, before or after it.
        if offlineRenameFirst {
            try a.output(["lists", "rename", "Weekly", "From A"])
            try b.output(["lists", "rename", "Weekly", "From B"])
        } else {
            try b.output(["lists", "rename", "Weekly", "From B"])
            try a.output(["lists", "rename", "Weekly", "From A"])
        }
        try a.output(["cloud", "online"])
        let later = offlineRenameFirst ? "From B" : "From A"
        for peer in [a, b, a, b] {
            #expect(try peer.listNames() == ["Groceries", later].sorted(), "\(peer.device): the later rename wins")
        }
    }

    /// Times are input: a word on a list whose name was "given" years ahead (a forged file, or a
    /// clock far ahead) does not win over a rename made now.
    @Test func aNameDatedFarAheadWinsNothing() throws {
        let (a, b) = try sharedCloud()
        let rows =
            try JSONSerialization.jsonObject(with: Data(try a.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let store = try #require(rows.first { $0["name"] as? String == "Weekly" }?["store"] as? String)
        let folder = cloud + "/default/kv/evil"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let value =
            #"{"storeName":"\#(store)","name":"Forged","renamed":"2099-01-01T00:00:00.000Z","account":"default"}"#
        let file: [String: Any] = [
            "format": "grocery-dude-kv", "peer": "evil", "number": 1,
            "writes": ["list.\(store)": ["value": value, "clock": "0001790000000000.000000.evil"]],
        ]
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: folder + "/1.gdkv"))
        try b.output(["lists", "rename", "Weekly", "Daily"])
        for peer in [a, b] { #expect(try peer.listNames() == ["Daily", "Groceries"], "\(peer.device)") }
    }

    @Test func onlineAndStatusCountEveryListsWaitingSaves() throws {
        let (a, b) = try sharedCloud()
        try a.output(["cloud", "offline"])
        try a.output(["--list", "Weekly", "item", "add", "Made offline"])
        let status =
            try JSONSerialization.jsonObject(with: Data(try a.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        #expect(status["pendingExport"] as? Int == 0 && status["pendingExportAllLists"] as? Int == 1, "\(status)")
        let online = try a.output(["cloud", "online"])
        #expect(online.hasPrefix("Online: nothing made on this device waits"), "every list's saves went out: \(online)")
        #expect(try b.itemNames(["--list", "Weekly"]) == ["Made offline", "Oats"])
    }
}
