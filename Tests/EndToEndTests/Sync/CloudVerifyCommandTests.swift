import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

/// `cloud verify` with real processes as devices on one cloud folder.
@Suite("Cloud verify from the command line")
struct CloudVerifyCommandTests {
    let directory = TemporaryDirectory("cloud-verify")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func storeFile(_ device: String) -> String {
        directory.path + "/devices/\(device)/ubiquity/default/GroceryDude/store.sqlite"
    }

    /// A device that waits for a log no longer in the cloud folder is told as such — which file,
    /// whose — and `cloud verify` concludes (exit 1) instead of "compare again" for ever; once
    /// the writer syncs (its audit covers the log with a baseline), both agree.
    @Test func aLogThatNoLongerExistsIsNamedAndVerifyConcludes() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Milk"])
        #expect(try phone.itemNames() == ["Milk"])
        try kitchen.output(["item", "add", "Eggs"])
        try kitchen.output(["cloud", "sync"])  // publishes its digest: it applied its log 2
        let status =
            try JSONSerialization.jsonObject(with: Data(try kitchen.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        let kitchenPeer = status["peerID"] as! String
        let log2 = directory.url.appendingPathComponent(
            "Cloud/default/GroceryDude/v3/epoch-1/logs/\(kitchenPeer)/0000000002.gdlog")
        try FileManager.default.removeItem(at: log2)

        let stuck = try phone.run(["cloud", "verify"])
        #expect(stuck.status != 0, "a conclusion, not compare again: \(stuck.stdout)")
        #expect(stuck.stdout.contains("CANNOT AGREE with kitchen"), "\(stuck.stdout)")
        #expect(
            stuck.stdout.contains("this device waits for log 2 of peer \(kitchenPeer)")
                && stuck.stdout.contains("is not in the cloud folder"),
            "which file, whose: \(stuck.stdout)")
        // The engine names the log; the command line words the command that skips it.
        #expect(stuck.stdout.contains("`grocery-dude cloud release \(kitchenPeer) 2` skips it"), "\(stuck.stdout)")
        let json =
            try JSONSerialization.jsonObject(with: Data(try phone.run(["cloud", "verify", "--json"]).stdout.utf8))
            as! [String: Any]
        #expect((json["stuck"] as? [[String: Any]])?.first?["device"] as? String == "kitchen")
        let skippable = (json["stuck"] as? [[String: Any]])?.first?["skippable"] as? [[String: Any]]
        #expect(skippable?.first?["peer"] as? String == kitchenPeer && skippable?.first?["seq"] as? Int == 2)

        // The writer syncs: its audit republishes what the log held; the phone gets it and both agree.
        try kitchen.output(["cloud", "sync"])
        try phone.output(["cloud", "sync"])
        try kitchen.output(["cloud", "sync"])
        #expect(try phone.itemNames() == ["Eggs", "Milk"])
        let agreed = try phone.run(["cloud", "verify"])
        #expect(agreed.status == 0 && agreed.stdout.contains("Agrees with kitchen"), "\(agreed.stdout)")
    }

    @Test func devicesAgreeADamagedOneIsNamedAndARebuildHeals() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Milk"])
        try kitchen.output(["item", "add", "Eggs"])
        try phone.output(["item", "add", "Bread"])
        try kitchen.output(["cloud", "sync"])
        #expect(try phone.output(["cloud", "verify"]).contains("Agrees with kitchen (peer "))
        let agreed = try kitchen.run(["cloud", "verify"])
        #expect(
            agreed.status == 0 && agreed.stdout.contains("Agrees with phone (peer ")
                && agreed.stdout.contains("on 3 logs."), "\(agreed)")
        #expect(try kitchen.output(["cloud", "status", "--json"]).contains("\"divergedFrom\": []"))

        // Damage the phone's store behind the app's back, with the engine's key function (the
        // names are indexed by it: a tool without it cannot change them).
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(
                function: DatabaseFunction("ubiquity_unique_key", argumentCount: 1, pure: true) { values in
                    String.fromDatabaseValue(values[0]).map(UniqueKey.normalize)
                })
        }
        let queue = try DatabaseQueue(path: storeFile("phone"), configuration: configuration)
        try queue.write { db in try db.execute(sql: "UPDATE item SET name = 'Spoiled' WHERE name = 'Milk'") }
        try queue.close()

        let onPhone = try phone.run(["cloud", "verify"])
        #expect(onPhone.status != 0)
        #expect(onPhone.stdout.contains("DIVERGED from kitchen"), "\(onPhone)")
        #expect(onPhone.stdout.contains("Item \"Spoiled\""), "\(onPhone)")
        let onKitchen = try kitchen.run(["cloud", "verify"])
        #expect(onKitchen.status != 0)
        #expect(
            onKitchen.stdout.contains("DIVERGED from phone (peer ")
                && onKitchen.stdout.contains("objects Item \"Milk\" ("),
            "\(onKitchen)")
        #expect(onKitchen.stdout.contains("Run `grocery-dude cloud rebuild` on the device whose data is wrong."))
        let json =
            try JSONSerialization.jsonObject(with: Data(try phone.run(["cloud", "verify", "--json"]).stdout.utf8))
            as! [String: Any]
        let diverging = json["diverging"] as! [[String: Any]]
        let objects = diverging.first?["objects"] as? [[String: Any]]
        #expect(
            objects?.count == 1 && objects?.first?["label"] as? String == "Spoiled"
                && objects?.first?["kind"] as? String == "differs")
        #expect(try kitchen.output(["cloud", "status"]).contains("Last verify:         DIVERGED from phone"))
        #expect(try phone.output(["cloud", "status", "--json"]).contains("\"divergedFrom\": [\"kitchen\"]"))

        try phone.output(["cloud", "rebuild"])
        #expect(try phone.run(["cloud", "verify"]).status == 0)
        let healed = try kitchen.run(["cloud", "verify"])
        #expect(healed.status == 0 && healed.stdout.contains("Agrees with phone"), "\(healed)")
        #expect(try phone.items().map { $0["name"] as! String } == ["Bread", "Eggs", "Milk"])
    }
}
