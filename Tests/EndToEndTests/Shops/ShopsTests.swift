import Foundation
import TestSupport
import Testing

/// Shops with their own aisles in their own walking order (model version 3), through real
/// processes: two devices of one cloud folder, and a device still on model 2 beside them.
@Suite("Shops and their aisle order")
struct ShopsTests {
    let directory = TemporaryDirectory("shops")
    var cloud: String { directory.file("Cloud").path }

    func device(_ name: String) -> CommandRunner {
        CommandRunner.device(name, in: directory.path, cloud: cloud)
    }

    func enabledPair() throws -> (CommandRunner, CommandRunner) {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let (kitchen, phone) = (device("kitchen"), device("phone"))
        try kitchen.output(["cloud", "enable", "--no-merge"])
        try phone.output(["cloud", "enable", "--no-merge"])
        return (kitchen, phone)
    }

    func json(_ runner: CommandRunner, _ arguments: [String]) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try runner.output(arguments).utf8)) as! [[String: Any]]
    }

    func aisleNames(_ runner: CommandRunner, in shop: String? = nil) throws -> [String] {
        try json(runner, ["aisle", "ls", "--json"] + (shop.map { ["--in", $0] } ?? [])).map { $0["name"] as! String }
    }

    func itemNames(_ runner: CommandRunner, in shop: String) throws -> [String] {
        try json(runner, ["item", "ls", "--in", shop, "--json"]).map { $0["name"] as! String }
    }

    @Test func shopsAislesAndAnItemsAislePerShopReachTheOtherDevice() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Milk", "--aisle", "Dairy"])
        try kitchen.output(["shops", "new", "Aldi"])
        try kitchen.output(["aisle", "add", "Aisle 10", "--in", "Aldi"])
        try kitchen.output(["item", "edit", "Milk", "--aisle", "Aisle 3", "--in", "aldi"])
        try kitchen.output(["item", "add", "Bread", "--aisle", "Aisle 10", "--in", "Aldi"])
        let shops = try json(phone, ["shops", "ls", "--json"])
        #expect(shops.map { $0["name"] as! String } == ["My shop", "Aldi"])
        #expect(shops.map { $0["aisles"] as! Int } == [1, 2])
        #expect(shops.first?["default"] as? Bool == true)
        #expect(try aisleNames(phone, in: "Aldi") == ["Aisle 3", "Aisle 10"], "natural order until moved")
        #expect(try aisleNames(phone) == ["Dairy"], "without --in: the default shop, as before shops")
        let milk = try #require(try phone.items().first { $0["name"] as? String == "Milk" })
        #expect(milk["shopLocation"] as? String == "Dairy", "shopLocation stays the default shop's aisle")
        let aisles = try #require(milk["aisles"] as? [[String: String]])
        #expect(aisles == [["shop": "My shop", "aisle": "Dairy"], ["shop": "Aldi", "aisle": "Aisle 3"]])
        // The shop command of before shops is the aisle command, on the default shop.
        #expect(try phone.output(["shop", "ls"]).contains("Dairy"))
        // --in alone is an error; so is a shop that does not exist, which changes nothing.
        let alone = try phone.run(["item", "edit", "Milk", "--in", "Aldi"])
        #expect(alone.status != 0 && alone.stderr.contains("--in names the shop of --aisle"), "\(alone.stderr)")
        let unknown = try phone.run(["item", "add", "Tea", "--aisle", "Aisle 1", "--in", "Lidl"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no shop matches \"Lidl\""), "\(unknown.stderr)")
        #expect(try !phone.itemNames().contains("Tea"), "nothing added")
        // A shop removed on one device goes with its aisles on the other; items keep the rest.
        try phone.output(["shops", "rm", "Aldi", "--yes"])
        #expect(try json(kitchen, ["shops", "ls", "--json"]).map { $0["name"] as! String } == ["My shop"])
        let after = try #require(try kitchen.items().first { $0["name"] as? String == "Milk" })
        #expect(after["aisles"] as? [[String: String]] == [["shop": "My shop", "aisle": "Dairy"]])
        let refused = try kitchen.run(["shops", "rm", "My shop", "--yes"])
        #expect(refused.status != 0 && refused.stderr.contains("default shop"), "\(refused.stderr)")
    }

    /// One list in two shops: each shop's list in its own walking order, items in no aisle of
    /// that shop last, by name.
    @Test func anItemsListInTwoShopsInTwoOrders() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["shops", "new", "Aldi"])
        try kitchen.output(["shops", "new", "Lidl"])
        for (item, aldi, lidl) in [
            ("Milk", "Chilled", "Aisle 1"), ("Bread", "Bakery", "Aisle 4"), ("Apples", "Produce", "Aisle 2"),
        ] {
            try kitchen.output(["item", "add", item, "--aisle", aldi, "--in", "Aldi"])
            try kitchen.output(["item", "edit", item, "--aisle", lidl, "--in", "Lidl"])
        }
        try kitchen.output(["item", "add", "Salt"])
        try kitchen.output(["aisle", "move", "Produce", "--in", "Aldi", "--first"])
        try kitchen.output(["aisle", "move", "Chilled", "--in", "Aldi", "--after", "Produce"])
        #expect(try aisleNames(kitchen, in: "Aldi") == ["Produce", "Chilled", "Bakery"])
        #expect(try itemNames(kitchen, in: "Aldi") == ["Apples", "Milk", "Bread", "Salt"])
        #expect(try itemNames(kitchen, in: "Lidl") == ["Milk", "Apples", "Bread", "Salt"])
        let table = try kitchen.output(["item", "ls", "--in", "Lidl"])
        #expect(table.contains("AISLE") && table.contains("Aisle 4"), "\(table)")
        let moved = try json(kitchen, ["aisle", "ls", "--in", "Aldi", "--json"])
        let bakery = moved.first { $0["name"] as? String == "Bakery" }
        #expect(bakery?["position"] is NSNull, "only moved aisles have one")
        let bad = try kitchen.run(["aisle", "move", "Produce", "--in", "Aldi"])
        #expect(bad.status != 0 && bad.stderr.contains("say where"), "\(bad.stderr)")
    }

    /// Two devices move two different aisles of one shop at once, offline from each other —
    /// the kitchen one the phone's move is made next to: once both are back, both moves hold on
    /// both devices.
    @Test func concurrentMovesOfDifferentAislesKeepBothMoves() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["shops", "new", "Aldi"])
        for aisle in ["Aisle 1", "Aisle 2", "Aisle 3", "Aisle 4", "Aisle 5"] {
            try kitchen.output(["aisle", "add", aisle, "--in", "Aldi"])
        }
        #expect(try aisleNames(phone, in: "Aldi") == ["Aisle 1", "Aisle 2", "Aisle 3", "Aisle 4", "Aisle 5"])
        try kitchen.output(["cloud", "offline"])
        try phone.output(["cloud", "offline"])
        try kitchen.output(["aisle", "move", "Aisle 2", "--in", "Aldi", "--first"])
        try phone.output(["aisle", "move", "Aisle 1", "--in", "Aldi", "--after", "Aisle 3"])
        try kitchen.output(["cloud", "online"])
        try phone.output(["cloud", "online"])
        try kitchen.output(["cloud", "sync"])
        let expected = ["Aisle 2", "Aisle 3", "Aisle 1", "Aisle 4", "Aisle 5"]
        #expect(try aisleNames(kitchen, in: "Aldi") == expected)
        #expect(try aisleNames(phone, in: "Aldi") == expected)
    }

    /// Two devices, offline, each make "Aldi" with an aisle and put the same item in it: once
    /// back, deduplication merges the shops by name, their aisles by name within the shop, and
    /// the item's two aisles there into one — the same on both devices.
    @Test func shopsMadeApartUnderOneNameMergeWithTheirAislesAndLinks() throws {
        let (kitchen, phone) = try enabledPair()
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["cloud", "sync"])
        try kitchen.output(["cloud", "offline"])
        try phone.output(["cloud", "offline"])
        try kitchen.output(["shops", "new", "Aldi"])
        try kitchen.output(["item", "edit", "Milk", "--aisle", "Chilled", "--in", "Aldi"])
        try phone.output(["shops", "new", "ALDI"])
        try phone.output(["item", "edit", "Milk", "--aisle", "chilled", "--in", "ALDI"])
        try phone.output(["aisle", "add", "Bakery", "--in", "ALDI"])
        try kitchen.output(["cloud", "online"])
        try phone.output(["cloud", "online"])
        try kitchen.output(["cloud", "sync"])
        #expect(try json(kitchen, ["shops", "ls", "--json"]).count == 3, "two Aldis until deduplicated")
        let report = try kitchen.output(["dedupe"])
        #expect(report.contains("Shop ") && report.contains("links whose item or shop was merged"), "\(report)")
        try phone.output(["cloud", "sync"])
        for device in [kitchen, phone] {
            #expect(try json(device, ["shops", "ls", "--json"]).map { $0["name"] as! String }.count == 2)
            let shop = try #require(try json(device, ["shops", "ls", "--json"]).last?["name"] as? String)
            #expect(try aisleNames(device, in: shop).map { $0.lowercased() } == ["bakery", "chilled"])
            let milk = try #require(try device.items().first)
            let aisles = try #require(milk["aisles"] as? [[String: String]])
            #expect(aisles.count == 1 && aisles.first?["aisle"]?.lowercased() == "chilled", "\(aisles)")
        }
        #expect(try kitchen.output(["export"]) == phone.output(["export"]))
    }

    /// A store of model 2 opens under model 3 with its aisles in the default shop; a device
    /// still on model 2 keeps syncing with its kind, and its data meets model 3 once it updates.
    @Test func aModel2StoreOpensUnderModel3AndA2DeviceMeetsThe3sWhenItUpdates() throws {
        let (kitchen, phone) = try enabledPair()
        let laptop = device("laptop")
        try laptop.output(["--model-version", "2", "item", "add", "Tea", "--aisle", "Hot drinks"])
        try laptop.output(["--model-version", "2", "cloud", "enable", "--no-merge"])
        try laptop.output(["--model-version", "2", "item", "add", "Coffee", "--aisle", "Hot drinks"])
        try kitchen.output(["item", "add", "Milk", "--aisle", "Dairy"])
        #expect(try laptop.itemNames(["--model-version", "2"]) == ["Coffee"], "model 2 sees nothing of model 3")
        #expect(try phone.itemNames() == ["Milk"], "model 3 sees nothing of model 2 yet")
        let old = try laptop.run(["--model-version", "2", "shops", "ls"])
        #expect(old.status != 0 && old.stderr.contains("model version 2"), "\(old.stderr)")
        // The silo is said on both sides, never silent.
        let status = try kitchen.output(["cloud", "status"])
        #expect(
            status.contains("device \"laptop\" is on an older version (model 2): its changes arrive when it updates"),
            "\(status)")
        let newer = try laptop.output(["--model-version", "2", "cloud", "status"])
        #expect(newer.contains("device \"kitchen\" is on a newer version (model 3)"), "\(newer)")
        let others =
            try JSONSerialization.jsonObject(
                with: Data(try phone.output(["cloud", "status", "--json"]).utf8)) as! [String: Any]
        let listed = try #require(others["otherModelVersions"] as? [[String: Any]])
        #expect(listed.map { $0["device"] as? String } == ["laptop"] && listed.first?["older"] as? Bool == true)
        // The laptop updates: its store migrates, its aisles are the default shop's.
        #expect(try laptop.itemNames() == ["Coffee", "Milk"])
        #expect(try aisleNames(laptop).contains("Hot drinks"))
        #expect(try json(laptop, ["shops", "ls", "--json"]).map { $0["name"] as! String } == ["My shop"])
        #expect(try phone.itemNames() == ["Coffee", "Milk"])
        let updated = try kitchen.output(["cloud", "status"])
        #expect(!updated.contains("laptop") && updated.contains("Other versions:"), "\(updated)")
        // Its local store (model 2, never merged) opens under model 3 too.
        try laptop.output(["cloud", "disable"])
        #expect(try laptop.itemNames() == ["Tea"])
        let tea = try #require(try laptop.items().first)
        #expect(tea["aisles"] as? [[String: String]] == [["shop": "My shop", "aisle": "Hot drinks"]])
    }
}
