import Foundation
import TestSupport
import Testing

/// Several named lists, from the command line: real processes, two devices sharing a cloud
/// folder. A list is a store of its own; its name syncs through the account's key-value store.
@Suite("Named lists")
struct NamedListsTests {
    let directory = TemporaryDirectory("named-lists")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        CommandRunner(
            dataDirectory: directory.path + "/data", device: name,
            environment: CommandRunner.withoutDefaultData.merging(["GROCERY_DUDE_CLOUD": cloud]) { _, new in new })
    }

    /// The devices' lists from `lists ls --json`: name → who made it.
    func lists(_ runner: CommandRunner) throws -> [String: String] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try runner.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        return Dictionary(
            uniqueKeysWithValues: rows.map { ($0["name"] as! String, ($0["createdBy"] as? String) ?? "-") })
    }

    func sharedCloud() throws -> (CommandRunner, CommandRunner) {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        try a.output(["cloud", "enable"])
        try b.output(["cloud", "enable"])
        return (a, b)
    }

    @Test("A list made on one device is found on the other with who made it; its items and its renames sync")
    func listsSyncBetweenDevices() throws {
        let (a, b) = try sharedCloud()
        #expect(try lists(a) == ["Groceries": "-"])
        let made = try a.output(["lists", "new", "Week-end at Anna's"])
        #expect(made.contains("\"Week-end at Anna's\""))
        try a.output(["--list", "Week-end at Anna's", "item", "add", "Party hats"])
        try a.output(["item", "add", "Milk"])

        #expect(try lists(b) == ["Groceries": "-", "Week-end at Anna's": "a"])
        // Names compare as names do: case and spaces aside.
        #expect(try b.itemNames(["--list", "week-end  at ANNA'S"]) == ["Party hats"])
        #expect(try b.itemNames() == ["Milk"], "the default list keeps its own items")

        try b.output(["lists", "rename", "Week-end at Anna's", "Été à la plage"])
        #expect(try lists(a) == ["Groceries": "-", "Été à la plage": "a"])
        #expect(try a.itemNames(["--list", "Été à la plage"]) == ["Party hats"], "a rename moves no data")
        #expect(
            try a.itemNames(["--list", "ete a la plage"]) == ["Party hats"], "accents aside when only one list matches")
        let old = try a.run(["--list", "Week-end at Anna's", "item", "ls"])
        #expect(old.status != 0 && old.stderr.contains("no list named"))
        // GROCERY_DUDE_LIST picks the list as --list does.
        #expect(
            try a.output(["item", "ls"], environment: ["GROCERY_DUDE_LIST": "Été à la plage"]).contains("Party hats"))
    }

    @Test(
        "rm asks, keeps this device's copy aside, and the list leaves every device; a new list of the same name starts empty"
    )
    func removeKeepsACopy() throws {
        let (a, b) = try sharedCloud()
        try a.output(["lists", "new", "Camping"])
        try a.output(["--list", "Camping", "item", "add", "Tent pegs"])
        #expect(try b.itemNames(["--list", "Camping"]) == ["Tent pegs"])

        let unasked = try a.run(["lists", "rm", "Camping"])
        #expect(unasked.status != 0 && unasked.stderr.contains("--yes"), "no terminal to ask: refused")
        #expect(try lists(a).keys.contains("Camping"))

        let removed = try a.output(["lists", "rm", "Camping", "--yes"])
        let keptPath = try #require(removed.split(separator: "kept at ").last.map { String($0.dropLast(2)) })
        let kept = try FileManager.default.contentsOfDirectory(atPath: keptPath)
        let storeFolder = try #require(
            kept.first { $0.hasPrefix("Camping-") }, "the list's cloud store is kept: \(kept)")
        #expect(FileManager.default.fileExists(atPath: "\(keptPath)/\(storeFolder)/store.sqlite"))
        #expect(try lists(a).keys.sorted() == ["Groceries"])
        #expect(try lists(b).keys.sorted() == ["Groceries"])
        let gone = try b.run(["--list", "Camping", "item", "ls"])
        #expect(gone.status != 0 && gone.stderr.contains("was removed by a"))

        try b.output(["lists", "new", "Camping"])
        #expect(try a.itemNames(["--list", "Camping"]) == [], "a new list with the old name is a new store")
    }

    @Test(
        "Bad names and bad requests change nothing",
        arguments: [
            (["lists", "new", ""], "blank"),
            (["lists", "new", "   "], "blank"),
            (["lists", "new", "Groceries"], "exists already"),
            (["lists", "new", "two\nlines"], "cannot name a list"),
            (["lists", "new", String(repeating: "x", count: 101)], "cannot name a list"),
            (["lists", "rm", "Groceries", "--yes"], "cannot be removed"),
            (["lists", "rename", "Nowhere", "Somewhere"], "no list named"),
            (["--list", "Nowhere", "item", "ls"], "no list named"),
        ])
    func badInput(arguments: [String], message: String) throws {
        let a = device("a")
        try a.output(["lists", "new", "Camping"])
        let before = try lists(a)
        let result = try a.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try lists(a) == before)
    }

    @Test("A list made with cloud sync off belongs to the device's local store, as the default list's local data")
    func madeWithSyncOffStaysLocal() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        try a.output(["lists", "new", "Pantry audit"])
        try a.output(["--list", "Pantry audit", "item", "add", "Rice"])
        #expect(try lists(a).keys.sorted() == ["Groceries", "Pantry audit"])
        try b.output(["cloud", "enable"])
        try a.output(["cloud", "enable", "--no-merge"])
        #expect(try lists(a).keys.sorted() == ["Groceries"], "not the account's")
        #expect(try lists(b).keys.sorted() == ["Groceries"], "never announced to the account")
        // Back on the local store, the list is there with its items.
        try a.output(["cloud", "disable"])
        #expect(try lists(a).keys.sorted() == ["Groceries", "Pantry audit"])
        #expect(try a.itemNames(["--list", "Pantry audit"]) == ["Rice"])
    }

    @Test(
        "A list announced by a hostile peer with a bad name or store name is ignored; the default list is never removed"
    )
    func hostileAnnouncements() throws {
        let (a, _) = try sharedCloud()
        let folder = cloud + "/default/kv/evil"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let announcements: [(String, String)] = [
            ("list.x.y", #"{"storeName":"x.y","name":"Dots"}"#),
            ("list.kv", #"{"storeName":"kv","name":"The key-value folder"}"#),
            ("list.GroceryDude", #"{"storeName":"GroceryDude","name":"Groceries","removed":"2026-01-01T00:00:00Z"}"#),
            ("list.Evil", #"{"storeName":"Evil","name":"\u202Egnirts"}"#),
            ("list.Blank", #"{"storeName":"Blank","name":"   "}"#),
            ("list.Other", #"{"storeName":"Mismatch","name":"Mismatch"}"#),
            ("list.Fine-123abc", #"{"storeName":"Fine-123abc","name":"Fine","createdBy":"evil","account":"default"}"#),
            // Made in another account, and without an account or data in this one: not this account's.
            ("list.Elsewhere-123abc", #"{"storeName":"Elsewhere-123abc","name":"Elsewhere","account":"work"}"#),
            ("list.Legacy-123abc", #"{"storeName":"Legacy-123abc","name":"Legacy"}"#),
        ]
        for (number, (key, value)) in announcements.enumerated() {
            let file: [String: Any] = [
                "format": "grocery-dude-kv", "peer": "evil", "number": number + 1,
                "writes": [key: ["value": value, "clock": "0001800000000123.000004.evil"]],
            ]
            try JSONSerialization.data(withJSONObject: file).write(
                to: URL(fileURLWithPath: "\(folder)/\(number + 1).gdkv"))
        }
        // The well-formed one is read (so the others were read too, and refused).
        #expect(try lists(a) == ["Groceries": "-", "Fine": "evil"])
    }
}
