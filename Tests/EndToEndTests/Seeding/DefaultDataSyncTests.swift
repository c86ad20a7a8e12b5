import Foundation
import TestSupport
import Testing

/// The shipped default data on devices that sync, with real processes and the default data on
/// (as users have it): every device's default data is one set of objects, and what users did
/// to it wins over it.
@Suite("Default data across devices")
struct DefaultDataSyncTests {
    let directory = TemporaryDirectory("default-data-sync")

    /// 138 items, 17 units, 10 home locations and 15 shop aisles.
    static let shippedItems = 138, shippedObjects = 180

    /// A device with the default data, as a user has it.
    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name)
    }

    func folder(_ name: String) throws -> String {
        let path = directory.file(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    func item(_ name: String, of items: [[String: Any]]) -> [String: Any]? {
        items.first { $0["name"] as? String == name }
    }

    /// One copy of each item, and nothing for `dedupe` to merge.
    func expectOneSet(
        _ runner: CommandRunner, _ global: [String] = [], items count: Int = shippedItems,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let items = try runner.items(global)
        let names = items.map { ($0["name"] as! String).lowercased() }
        #expect(
            names.count == count && Set(names).count == count,
            "\(runner.device): \(names.count) items, \(names.count - Set(names).count) duplicated",
            sourceLocation: sourceLocation)
        let merges = try json(try runner.output(global + ["dedupe", "--json"]))
        #expect(
            merges.isEmpty, "\(runner.device): dedupe found \(merges.map { $0["name"] ?? "" })",
            sourceLocation: sourceLocation)
    }

    /// What a file-sync engine does: every file of one replica that the other lacks is copied.
    func replicate(from source: String, to destination: String) throws {
        let manager = FileManager.default
        for path in manager.subpaths(atPath: source) ?? [] {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: source + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !manager.fileExists(atPath: destination + "/" + path)
            else { continue }
            try manager.createDirectory(
                atPath: (destination + "/" + path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try manager.copyItem(atPath: source + "/" + path, toPath: destination + "/" + path)
        }
    }

    // MARK: - What users did wins

    /// Issue 15's "Aluminium Foil": a change made on the local store before merging is kept,
    /// though the account's first device created its default data later.
    @Test func aListingMadeBeforeMergingWinsOverDefaultDataAnotherDeviceCreatedLater() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        // Device 1, local store with the default data: puts Aluminium Foil on the list.
        try kitchen.output(["item", "list", "Aluminium Foil"])
        // Device 2 turns sync on first; its cloud store gets the default data now, later.
        try phone.output(["cloud", "enable"])
        #expect(try phone.items().count == Self.shippedItems)
        // Device 1 turns sync on and merges.
        let merged = try kitchen.output(["cloud", "enable", "--merge"])
        #expect(
            merged.contains(
                // The shipped objects and the default shop every store of model 3 has alike.
                "Merged local data into the cloud: 181 objects: 1 updated, 180 already in the cloud; no duplicates merged"
            ),
            "\(merged)")

        for runner in [kitchen, phone] {
            let foil = try #require(item("Aluminium Foil", of: try runner.items()))
            #expect(foil["listed"] as? Bool == true, "\(runner.device): the user's listing won")
            try expectOneSet(runner)
        }
        #expect(try kitchen.output(["export"]) == (try phone.output(["export"])))
    }

    /// Two devices with the default data and changes of their own turn sync on one after the
    /// other, in either order: one copy of everything, and both devices' changes on both.
    @Test(arguments: [["kitchen", "phone"], ["phone", "kitchen"]])
    func twoDevicesWithDefaultDataEnablingInEitherOrderHoldOneSet(_ order: [String]) throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["item", "list", "Milk"])
        try phone.output(["unit", "rename", "kg", "kilogram"])
        for name in order {
            let merged = try device(name).output(["cloud", "enable", "--merge"])
            #expect(merged.contains("Merged local data into the cloud: 181 objects: "), "\(merged)")
        }
        // A third device whose default data nobody touched has nothing to add.
        let laptop = device("laptop")
        #expect(try laptop.items().count == Self.shippedItems)
        let merged = try laptop.output(["cloud", "enable", "--merge"])
        #expect(
            merged.contains(
                "Merged local data into the cloud: all 181 objects were already in the cloud; no duplicates merged"),
            "\(merged)")

        for runner in [kitchen, phone, laptop] {
            try expectOneSet(runner)
            let items = try runner.items()
            #expect(item("Milk", of: items)?["listed"] as? Bool == true, "\(runner.device)")
            #expect(
                item("Rice", of: items)?["unit"] as? String == "kilogram",
                "\(runner.device): the renamed unit, one of it")
            let units = try json(try runner.output(["unit", "ls", "--json"])).map { $0["name"] as! String }
            #expect(
                units.count == 17 && units.contains("kilogram") && !units.contains("kg"), "\(runner.device): \(units)")
        }
        #expect(try kitchen.output(["export"]) == (try phone.output(["export"])))
    }

    /// Two machines turn sync on at once, each on its own replica of the share, before the
    /// file-sync engine has exchanged anything: both add the account's default data, which
    /// is still one set once the files meet.
    @Test func twoDevicesSettingUpAtOnceOnTwoReplicasHoldOneSet() throws {
        let shareA = try folder("share-a")
        let shareB = try folder("share-b")
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["item", "list", "Milk"])
        try phone.output(["item", "edit", "Bread", "--qty", "3"])
        try kitchen.output(["--cloud", shareA, "cloud", "enable", "--merge"])
        try phone.output(["--cloud", shareB, "cloud", "enable", "--merge"])

        try replicate(from: shareA, to: shareB)
        try replicate(from: shareB, to: shareA)
        for (runner, share) in [(kitchen, shareA), (phone, shareB)] {
            try runner.output(["--cloud", share, "cloud", "sync"])
            try expectOneSet(runner, ["--cloud", share])
            let items = try runner.items(["--cloud", share])
            #expect(item("Milk", of: items)?["listed"] as? Bool == true, "\(runner.device)")
            #expect(item("Bread", of: items)?["quantity"] as? Double == 3, "\(runner.device)")
        }
        #expect(
            try kitchen.output(["--cloud", shareA, "export"]) == (try phone.output(["--cloud", shareB, "export"])))
    }

    // MARK: - Deleted defaults stay deleted

    /// A default item deleted in the cloud is not brought back by another device's default data
    /// merged in later.
    @Test func aDeletedDefaultStaysDeletedWhenAnotherDeviceMergesItsDefaultData() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try kitchen.output(["item", "rm", "Milk"])
        #expect(try phone.items().count == Self.shippedItems, "the phone's local store has its own Milk")

        let merged = try phone.output(["cloud", "enable", "--merge"])
        #expect(
            merged.contains("181 objects: 180 already in the cloud, 1 deleted in the cloud, left deleted"), "\(merged)")
        for runner in [kitchen, phone] {
            #expect(item("Milk", of: try runner.items()) == nil, "\(runner.device): Milk stays deleted")
            try expectOneSet(runner, items: Self.shippedItems - 1)
        }
    }

    /// The other device's default data arrives after the delete, as an insert of the same object
    /// with the shipped (older) reading: the delete wins, on both devices, whichever file each
    /// sees first.
    @Test func aDeletedDefaultStaysDeletedWhenTheOtherDevicesInsertArrivesLater() throws {
        let shareA = try folder("share-a")
        let shareB = try folder("share-b")
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["--cloud", shareA, "cloud", "enable"])
        try kitchen.output(["--cloud", shareA, "item", "rm", "Milk"])
        // The phone has not seen the kitchen's files: it adds the default data too.
        try phone.output(["--cloud", shareB, "cloud", "enable"])
        #expect(item("Milk", of: try phone.items(["--cloud", shareB])) != nil)

        try replicate(from: shareA, to: shareB)
        try replicate(from: shareB, to: shareA)
        for (runner, share) in [(kitchen, shareA), (phone, shareB)] {
            try runner.output(["--cloud", share, "cloud", "sync"])
            #expect(
                item("Milk", of: try runner.items(["--cloud", share])) == nil, "\(runner.device): Milk stays deleted")
            try expectOneSet(runner, ["--cloud", share], items: Self.shippedItems - 1)
        }
        #expect(
            try kitchen.output(["--cloud", shareA, "export"]) == (try phone.output(["--cloud", shareB, "export"])))
    }
}
