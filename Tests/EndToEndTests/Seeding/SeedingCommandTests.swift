import Foundation
import TestSupport
import Testing

/// "Merge with Cloud?" and deduplication, with real processes.
@Suite("Seeding the cloud and deduplicating")
struct SeedingCommandTests {
    let directory = TemporaryDirectory("seeding")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    static func key(_ text: Any?) -> String {
        ((text as? String) ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// name → normalized (unit, home, shop).
    func links(_ items: [[String: Any]]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for item in items {
            result[Self.key(item["name"])] = [
                Self.key(item["unit"]), Self.key(item["homeLocation"]), Self.key(item["shopLocation"]),
            ]
        }
        return result
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

    @Test(.enabled(if: Fixtures.originalGroceryDude != nil))
    func twoDevicesMergingTheBookEndWithOneCopyOfEverything() throws {
        let book = Fixtures.originalGroceryDude!.appendingPathComponent("DefaultData.sqlite").path
        let reference = device("reference")
        try reference.output(["import", book, "--format", "coredata"])
        let expected = links(try reference.items())

        // Each device merges into its own replica of the share, as two machines would before
        // the sync engine (Syncthing) has exchanged anything.
        let shareA = directory.file("share-a").path
        let shareB = directory.file("share-b").path
        for share in [shareA, shareB] {
            try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        }
        let a = device("a")
        let b = device("b")
        try a.output(["import", book, "--format", "coredata"])
        try b.output(["import", book, "--format", "coredata"])
        #expect(
            try a.output(["--cloud", shareA, "cloud", "enable", "--merge"]).contains("Merged local data into the cloud")
        )
        #expect(
            try b.output(["--cloud", shareB, "cloud", "enable", "--merge"]).contains("Merged local data into the cloud")
        )

        // The engine exchanges the files: b's logs reach share A.
        try replicate(from: shareB, to: shareA)
        let share = ["--cloud", shareA]
        try a.output(share + ["cloud", "sync"])
        try b.output(share + ["cloud", "sync"])
        #expect(try a.items(share).count == 2 * expected.count, "each device holds both copies before deduplication")
        // Both deduplicate at the same time, each on its own replica, before seeing the other's.
        let mergedA =
            try JSONSerialization.jsonObject(with: Data(try a.output(share + ["dedupe", "--json"]).utf8))
            as! [[String: Any]]
        let mergedB =
            try JSONSerialization.jsonObject(with: Data(try b.output(["--cloud", shareB, "dedupe", "--json"]).utf8))
            as! [[String: Any]]
        #expect(
            mergedA.count == expected.count + 7 + 18 + 17,
            "every item, unit (kg and Kg being one) and location had two copies")
        let survivorsA = Set(mergedA.map { $0["survivor"] as! String })
        let survivorsB = Set(mergedB.map { $0["survivor"] as! String })
        #expect(survivorsA == survivorsB, "the same survivors on both devices")
        try replicate(from: shareB, to: shareA)
        for runner in [a, b, a] { try runner.output(share + ["cloud", "sync"]) }
        for runner in [a, b] { #expect(try runner.output(share + ["dedupe"]).contains("No duplicates")) }

        #expect(try a.output(share + ["export"]) == (try b.output(share + ["export"])))
        let final = try a.items(share)
        #expect(final.count == expected.count, "one copy of each item")
        #expect(links(final) == expected, "every item keeps its unit and locations")
        let units = try a.output(share + ["unit", "ls"]).split(separator: "\n")
        #expect(units.count == 7, "the book's 8 units: kg and Kg are one: \(units)")
        let homes = try a.output(share + ["home", "ls"]).split(separator: "\n").count
        let aisles = try a.output(share + ["shop", "ls"]).split(separator: "\n").count
        #expect(homes == Set(expected.values.map { $0[1] }.filter { !$0.isEmpty }).count)
        #expect(aisles == Set(expected.values.map { $0[2] }.filter { !$0.isEmpty }).count)
    }

    @Test func aLocalItemMergedIntoTheCloudReachesOtherDevicesAndTheOldStoreIsGone() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "LOCAL ITEM"])
        let local = directory.path + "/devices/kitchen/local"
        #expect(FileManager.default.fileExists(atPath: local + "/GroceryDude.sqlite"))
        let refused = try kitchen.run(["cloud", "enable"])
        #expect(refused.status != 0 && refused.stderr.contains("--merge"), "a script is asked to choose")
        try kitchen.output(["cloud", "enable", "--merge"])
        #expect(try phone.items().map { $0["name"] as! String } == ["LOCAL ITEM"])
        #expect(try kitchen.items().map { $0["name"] as! String } == ["LOCAL ITEM"])
        let left = try FileManager.default.contentsOfDirectory(atPath: local).filter {
            $0.hasPrefix("GroceryDude.sqlite")
        }
        #expect(left.isEmpty, "\(left)")
        let log = try String(contentsOfFile: directory.path + "/devices/phone/grocery-dude.log", encoding: .utf8)
        #expect(log.contains("no local store: migration to the cloud skipped"))
    }

    @Test(arguments: ["mid-seed", "mid-seed-removal"])
    func aSeedKilledAnywhereIsFinishedByTheNextCommand(_ fault: String) throws {
        // More than one batch of the copy (500 objects).
        var csv = "kind,name,quantity,unit,homeLocation,shopLocation,listed,collected,note\n"
        for index in 0..<1200 {
            csv += "item,Item \(index),1,\(index % 2 == 0 ? "kg" : "Kg"),Fridge,Dairy,true,false,\n"
        }
        let file = directory.file("items.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let kitchen = device("kitchen")
        let phone = device("phone")
        try phone.output(["cloud", "enable"])
        try kitchen.output(["import", file.path])

        let killed = try kitchen.run(["cloud", "enable", "--merge"], environment: ["GROCERY_DUDE_FAULT": fault])
        #expect(killed.status != 0, "the process was killed")
        // Any next command finishes the merge.
        let names = try kitchen.items().map { $0["name"] as! String }
        #expect(names.count == 1200 && Set(names).count == 1200, "nothing lost, nothing doubled")
        let local = directory.path + "/devices/kitchen/local"
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: local).filter { $0.hasPrefix("GroceryDude.sqlite") }
                .isEmpty)
        let settings = try String(contentsOfFile: directory.path + "/devices/kitchen/settings.json", encoding: .utf8)
        #expect(!settings.contains("seedSource"))
        let onPhone = try phone.items()
        #expect(onPhone.count == 1200)
        #expect(Set(onPhone.map { $0["unit"] as! String }).count == 1, "kg and Kg are one unit")
    }

    @Test(.enabled(if: TmuxSession.isAvailable))
    func theAppFinishesAnInterruptedMergeBehindTheList() throws {
        var csv = "kind,name,quantity,unit,homeLocation,shopLocation,listed,collected,note\n"
        for index in 0..<1200 { csv += "item,Item \(index),1,kg,Fridge,Dairy,true,false,\n" }
        let file = directory.file("items.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let kitchen = device("kitchen")
        try kitchen.output(["import", file.path])
        let killed = try kitchen.run(["cloud", "enable", "--merge"], environment: ["GROCERY_DUDE_FAULT": "mid-seed"])
        #expect(killed.status != 0)

        let app =
            "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) --data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60"
        let tmux = try TmuxSession(command: app)
        try tmux.waitFor { $0.contains("Merged with the cloud") }
        // The selection stayed on its item while the others arrived around it; g goes to the top.
        try tmux.sendKeys("g")
        #expect(try tmux.waitFor { $0.contains("Item 0\n") }.contains("Item 0\n"))
        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("EXITED") }
        #expect(try kitchen.items().count == 1200)
        let local = directory.path + "/devices/kitchen/local"
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: local).filter { $0.hasPrefix("GroceryDude.sqlite") }
                .isEmpty)
    }

    @Test func aNonStoreIsNotMerged() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["cloud", "enable"])
        let file = directory.file("notes.txt")
        try "not a store".write(to: file, atomically: true, encoding: .utf8)
        let result = try kitchen.run(["cloud", "merge-kept", file.path])
        #expect(result.status != 0 && result.stderr.contains("is not a Grocery Dude store"), "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a store")
        #expect(
            !(try String(contentsOfFile: directory.path + "/devices/kitchen/settings.json", encoding: .utf8)).contains(
                "seedSource"))
    }
}
