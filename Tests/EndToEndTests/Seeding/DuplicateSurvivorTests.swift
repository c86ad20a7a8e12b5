import Foundation
import TestSupport
import Testing

/// Which duplicate survives a deduplication, what it keeps, and what becomes of an edit made
/// elsewhere to a copy merged away — with real processes as devices. Devices share a cloud
/// folder; an observer has a replica of its own, to which the test copies one device's logs
/// before the other's.
@Suite("Which duplicate survives, and edits to merged copies")
struct DuplicateSurvivorTests {
    let directory = TemporaryDirectory("survivor")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func json(_ device: CommandRunner, _ arguments: [String]) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try device.output(arguments).utf8)) as! [[String: Any]]
    }

    func units(_ device: CommandRunner, _ global: [String] = []) throws -> [[String: Any]] {
        try json(device, global + ["unit", "ls", "--json"])
    }

    /// Two devices on the shared cloud folder, both set up.
    func kitchenAndPhone() throws -> (CommandRunner, CommandRunner) {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try phone.output(["item", "ls"])
        return (kitchen, phone)
    }

    /// "Milk" made on the kitchen and "milk" on the phone while it was offline, both synced:
    /// two copies on each device. Returns their IDs, the kitchen's first.
    func twoCopiesOfMilk(_ kitchen: CommandRunner, _ phone: CommandRunner) throws -> (String, String) {
        try phone.output(["cloud", "offline"])
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["item", "add", "milk"])
        try phone.output(["cloud", "online"])
        for runner in [kitchen, phone] { try runner.output(["cloud", "sync"]) }
        let items = try kitchen.items().filter { ($0["name"] as! String).lowercased() == "milk" }
        #expect(items.count == 2)
        let id = { (name: String) in items.first { $0["name"] as? String == name }!["id"] as! String }
        return (id("Milk"), id("milk"))
    }

    /// The same items and units, and the same export, on every device; one Milk with `quantity`
    /// and `note` where asked.
    func expectSame(_ devices: [(CommandRunner, [String])]) throws {
        let (first, global) = devices[0]
        let items = try first.output(global + ["item", "ls", "--json"])
        let units = try first.output(global + ["unit", "ls", "--json"])
        for (device, global) in devices.dropFirst() {
            #expect(
                try device.output(global + ["item", "ls", "--json"]) == items,
                "\(device.device)'s items differ from \(first.device)'s")
            #expect(
                try device.output(global + ["unit", "ls", "--json"]) == units,
                "\(device.device)'s units differ from \(first.device)'s")
        }
        for (device, global) in devices {
            #expect(try device.output(global + ["dedupe"]).contains("No duplicates"), "\(device.device)")
        }
    }

    // MARK: - Which copy survives

    /// "kg" used by five items on the kitchen, "KG" by one on the phone, made later: the unit
    /// is "kg" on both devices, and all six items use it.
    @Test func theSpellingMostItemsUseSurvivesOnEveryDevice() throws {
        let (kitchen, phone) = try kitchenAndPhone()
        try phone.output(["cloud", "offline"])
        for n in 1...5 { try kitchen.output(["item", "add", "Item \(n)", "--unit", "kg"]) }
        try phone.output(["item", "add", "Item 6", "--unit", "KG"])
        try phone.output(["cloud", "online"])
        for runner in [kitchen, phone] { try runner.output(["cloud", "sync"]) }
        #expect(try units(kitchen).count == 2)

        let merged = try json(kitchen, ["dedupe", "--json"])
        #expect(merged.map { $0["name"] as? String } == ["kg"], "\(merged)")
        try phone.output(["cloud", "sync"])
        for runner in [kitchen, phone] {
            let list = try units(runner)
            #expect(
                list.map { $0["name"] as? String } == ["kg"] && list.first?["items"] as? Int == 6,
                "\(runner.device): \(list)")
            #expect(try runner.items().allSatisfy { $0["unit"] as? String == "kg" }, "\(runner.device)")
        }
        try expectSame([(kitchen, []), (phone, [])])
    }

    /// Each device edits its own copy of Milk, the phone later: the survivor has both edits.
    @Test func anItemEditedOnTwoCopiesKeepsTheNewestValueOfEachProperty() throws {
        let (kitchen, phone) = try kitchenAndPhone()
        let (kitchenMilk, phoneMilk) = try twoCopiesOfMilk(kitchen, phone)
        for runner in [kitchen, phone] { try runner.output(["cloud", "offline"]) }
        try kitchen.output(["item", "edit", kitchenMilk, "--qty", "3"])
        try phone.output(["item", "edit", phoneMilk, "--note", "organic"])
        for runner in [kitchen, phone] { try runner.output(["cloud", "online"]) }
        for runner in [kitchen, phone, kitchen] { try runner.output(["cloud", "sync"]) }

        try kitchen.output(["dedupe"])
        try phone.output(["cloud", "sync"])
        for runner in [kitchen, phone] {
            let items = try runner.items()
            #expect(items.count == 1, "\(runner.device): \(items)")
            #expect(
                items.first?["quantity"] as? Double == 3 && items.first?["note"] as? String == "organic",
                "\(runner.device): \(items)")
        }
        try expectSame([(kitchen, []), (phone, [])])
    }

    // MARK: - Deduplicating at once

    /// Both devices deduplicate while offline, each having seen different things: the kitchen
    /// counts "kg" used by three items, the phone "KG" by four, and each edited its own copy of
    /// Milk last. After syncing both ways: one unit that every item uses, one Milk with both
    /// edits, the same data on both — nothing deleted twice.
    @Test func twoDevicesWithDifferentViewsDeduplicatingAtOnceKeepOneCopyOfEverything() throws {
        let (kitchen, phone) = try kitchenAndPhone()
        try kitchen.output(["item", "add", "Flour", "--unit", "kg"])
        try phone.output(["cloud", "offline"])
        try phone.output(["item", "add", "Sugar", "--unit", "KG"])
        try phone.output(["cloud", "online"])
        let (kitchenMilk, phoneMilk) = try twoCopiesOfMilk(kitchen, phone)
        #expect(try units(phone).count == 2)

        for runner in [kitchen, phone] { try runner.output(["cloud", "offline"]) }
        for name in ["Rice", "Oats"] { try kitchen.output(["item", "add", name, "--unit", "kg"]) }
        for name in ["Salt", "Tea", "Beans"] { try phone.output(["item", "add", name, "--unit", "KG"]) }
        try kitchen.output(["item", "edit", kitchenMilk, "--qty", "3"])
        try phone.output(["item", "edit", phoneMilk, "--note", "organic"])
        let mergedOnKitchen = try json(kitchen, ["dedupe", "--json"])
        try kitchen.output(["item", "edit", "Milk", "--qty", "4"])  // after its own dedupe, on its survivor
        let mergedOnPhone = try json(phone, ["dedupe", "--json"])
        #expect(
            Set(mergedOnKitchen.map { $0["survivor"] as! String })
                == Set(mergedOnPhone.map { $0["survivor"] as! String }),
            "the same survivors, whatever each device had seen")
        #expect(mergedOnKitchen.first { $0["entity"] as? String == "Unit" }?["name"] as? String == "kg")
        #expect(mergedOnPhone.first { $0["entity"] as? String == "Unit" }?["name"] as? String == "KG")

        for runner in [kitchen, phone] { try runner.output(["cloud", "online"]) }
        for runner in [kitchen, phone, kitchen] { try runner.output(["cloud", "sync"]) }
        for runner in [kitchen, phone] {
            let list = try units(runner)
            #expect(
                list.count == 1 && list.first?["items"] as? Int == 7,
                "\(runner.device): exactly one unit, used by all: \(list)")
            let items = try runner.items()
            #expect(
                Set(items.map { ($0["name"] as! String).lowercased() }) == [
                    "milk", "flour", "sugar", "rice", "oats", "salt", "tea", "beans",
                ])
            #expect(items.count == 8, "\(runner.device): \(items.map { $0["name"] as! String })")
            let milk = items.filter { ($0["name"] as! String).lowercased() == "milk" }
            #expect(
                milk.count == 1 && milk.first?["quantity"] as? Double == 4
                    && milk.first?["note"] as? String == "organic",
                "\(runner.device): \(milk)")
            let used = items.filter { ($0["name"] as! String).lowercased() != "milk" }.map { $0["unit"] as? String }
            #expect(used.allSatisfy { $0 != nil && $0 == list.first?["name"] as? String }, "\(runner.device): \(used)")
        }
        try expectSame([(kitchen, []), (phone, [])])
    }

    // MARK: - An edit to a copy merged away

    /// The kitchen is offline; the phone merges the two copies of Milk; the kitchen edits the
    /// copy the phone merged away (before or after the merge, it cannot tell). The edit lands
    /// on the survivor on both devices, and on two observers that get the phone's logs and the
    /// kitchen's in opposite orders.
    @Test(arguments: [false, true])
    func anOfflineEditOfACopyMergedAwayLandsOnTheSurvivor(editedBeforeTheMerge: Bool) throws {
        let (kitchen, phone) = try kitchenAndPhone()
        let (kitchenMilk, phoneMilk) = try twoCopiesOfMilk(kitchen, phone)
        try kitchen.output(["cloud", "offline"])
        var merged: String
        if editedBeforeTheMerge {
            // It cannot know which copy will be merged away: it edits both.
            try kitchen.output(["item", "edit", kitchenMilk, "--qty", "7"])
            try kitchen.output(["item", "edit", phoneMilk, "--note", "organic"])
            merged = try json(phone, ["dedupe", "--json"]).first?["merged"].flatMap { ($0 as? [String])?.first } ?? ""
        } else {
            merged = try json(phone, ["dedupe", "--json"]).first?["merged"].flatMap { ($0 as? [String])?.first } ?? ""
            try kitchen.output(["item", "edit", merged, "--qty", "7"])
            try kitchen.output(["item", "edit", merged == kitchenMilk ? phoneMilk : kitchenMilk, "--note", "organic"])
        }
        #expect([kitchenMilk, phoneMilk].contains(merged))

        // Observers, each on a replica of its own: the phone's logs first, or the kitchen's.
        let kitchenPeer = try peerID(kitchen)
        let phonePeer = try peerID(phone)
        try kitchen.output(["cloud", "online"])
        for runner in [phone, kitchen] { try runner.output(["cloud", "sync"]) }
        var observers: [(CommandRunner, [String])] = []
        for (name, order) in [("observer-1", [phonePeer, kitchenPeer]), ("observer-2", [kitchenPeer, phonePeer])] {
            let share = directory.file("share-\(name)").path
            try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
            let observer = device(name)
            let global = ["--cloud", share]
            try observer.output(global + ["cloud", "enable"])
            for peer in order {
                try replicate(from: directory.file("Cloud").path, to: share, onlyPeer: peer)
                try observer.output(global + ["cloud", "sync"])
            }
            observers.append((observer, global))
        }
        for (runner, global) in [(kitchen, []), (phone, [])] + observers {
            let items = try runner.items(global)
            #expect(items.count == 1, "\(runner.device): \(items)")
            #expect(
                items.first?["quantity"] as? Double == 7 && items.first?["note"] as? String == "organic",
                "\(runner.device): the edits of both copies are on the survivor: \(items)")
        }
        try expectSame([(kitchen, []), (phone, [])] + observers)
    }

    func peerID(_ device: CommandRunner) throws -> String {
        let status =
            try JSONSerialization.jsonObject(with: Data(try device.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        return status["peerID"] as! String
    }

    /// What a file-sync engine does, for one peer's logs only: every file the replica lacks, of
    /// the shared folders and that peer's own (other peers' logs, baselines and digests stay behind).
    func replicate(from source: String, to destination: String, onlyPeer peer: String) throws {
        let manager = FileManager.default
        for path in manager.subpaths(atPath: source) ?? [] {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: source + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !manager.fileExists(atPath: destination + "/" + path)
            else { continue }
            let components = path.split(separator: "/").map(String.init)
            if let index = components.firstIndex(where: { ["logs", "baselines", "digests", "refusals"].contains($0) }),
                components.count > index + 1, components[index + 1] != peer
            {
                continue
            }
            try manager.createDirectory(
                atPath: (destination + "/" + path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try manager.copyItem(atPath: source + "/" + path, toPath: destination + "/" + path)
        }
    }
}
