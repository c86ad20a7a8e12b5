import Foundation
import TestSupport
import Testing

/// A person per device: who uses it, named in the header of every log it publishes.
@Suite("A person per device")
struct PersonTests {
    let directory = TemporaryDirectory("person")
    var cloud: String { directory.file("Cloud").path }

    func device(_ name: String) -> CommandRunner {
        CommandRunner.device(name, in: directory.path, cloud: cloud)
    }

    /// The header of the newest log `device`'s peer published.
    func newestHeader() throws -> [String: Any] {
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        let peers = try FileManager.default.contentsOfDirectory(atPath: logs.path)
        let files = try peers.flatMap { peer in
            try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(peer).path)
                .map { logs.appendingPathComponent(peer).appendingPathComponent($0) }
        }
        let newest = try #require(
            files.max {
                let a = try? FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date
                let b = try? FileManager.default.attributesOfItem(atPath: $1.path)[.modificationDate] as? Date
                return (a ?? .distantPast, $0.lastPathComponent) < (b ?? .distantPast, $1.lastPathComponent)
            })
        let lines = try String(contentsOf: newest, encoding: .utf8).split(separator: "\n")
        return try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [String: Any]
    }

    func shown(_ runner: CommandRunner, environment: [String: String] = [:]) throws -> [String: String] {
        try JSONSerialization.jsonObject(
            with: Data(try runner.output(["person", "--json"], environment: environment).utf8)) as! [String: String]
    }

    @Test func everyLogNamesTheDevicesPersonAndACommandMayNameAnother() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable", "--no-merge"])
        try phone.output(["cloud", "enable", "--no-merge"])
        #expect(try shown(kitchen) == ["person": "kitchen", "device": "kitchen", "from": "device"])
        #expect(try kitchen.output(["person"]).contains("the device's name"))
        try kitchen.output(["item", "add", "Tea"])
        #expect(try newestHeader()["person"] as? String == "kitchen", "the device's name until set")

        #expect(try kitchen.output(["person", "set", " Anna "]).contains("\"Anna\""))
        #expect(try shown(kitchen) == ["person": "Anna", "device": "kitchen", "from": "set"])
        try kitchen.output(["item", "add", "Milk"])
        var header = try newestHeader()
        #expect(header["person"] as? String == "Anna" && header["device"] as? String == "kitchen", "\(header)")

        // One command as someone else.
        let ben = ["GROCERY_DUDE_PERSON": "Ben"]
        #expect(try shown(kitchen, environment: ben)["from"] == "environment")
        try kitchen.output(["item", "add", "Bread"], environment: ben)
        header = try newestHeader()
        #expect(header["person"] as? String == "Ben" && header["device"] as? String == "kitchen", "\(header)")
        #expect(try shown(kitchen)["person"] == "Anna", "the device's own person stays")

        // Bad names: a clear message, nothing changed.
        let refused = try kitchen.run(["person", "set", "An\u{7}na"])
        #expect(refused.status != 0 && refused.stderr.contains("invalid person"), "\(refused.stderr)")
        #expect(try shown(kitchen)["person"] == "Anna")
        let bad = try kitchen.run(["item", "add", "Salt"], environment: ["GROCERY_DUDE_PERSON": "B\u{1}en"])
        #expect(bad.status != 0 && bad.stderr.contains("GROCERY_DUDE_PERSON: invalid person"), "\(bad.stderr)")
        #expect(try !kitchen.itemNames().contains("Salt"))

        // The other device reads the logs that name a person as any.
        #expect(try phone.itemNames() == ["Bread", "Milk", "Tea"])
    }
}
