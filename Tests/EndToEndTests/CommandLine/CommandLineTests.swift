import Foundation
import TestSupport
import Testing

/// The real `grocery-dude` binary, run as separate processes: every command is a restart.
@Suite("The command line")
struct CommandLineTests {
    let directory = TemporaryDirectory("cli")
    var cli: CommandRunner { CommandRunner(dataDirectory: directory.path, device: "kitchen") }

    func items(_ runner: CommandRunner? = nil, listed: Bool = false) throws -> [[String: Any]] {
        let result = try (runner ?? cli).run(["item", "ls", "--json"] + (listed ? ["--listed"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
    }

    func ok(_ arguments: [String]) throws -> String {
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    @Test func theVersionIsResourcesVersionWithoutItsSpaces() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Resources/VERSION")
        let version = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        #expect(try ok(["--version"]) == "grocery-dude \(version)\n")
        #expect(try ok(["version"]) == "grocery-dude \(version)\n")
    }

    /// `--help` and `-h` alone print the top-level help without parsing the line (`RootHelp`):
    /// the same text as `help`, which the argument parser prints after parsing it, and as
    /// `--help` after the global options, which is parsed too.
    @Test func theHelpScreenIsTheParsersWhicheverWayItIsAsked() throws {
        func help(_ arguments: [String], global: Bool) throws -> String {
            let result = try cli.run(arguments, global: global)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        let parsed = try help(["help"], global: false)
        #expect(parsed.hasPrefix("OVERVIEW: ") && parsed.contains("\nSUBCOMMANDS:\n"))
        #expect(try help(["--help"], global: false) == parsed)
        #expect(try help(["-h"], global: false) == parsed)
        #expect(try help(["--help"], global: true) == parsed)
    }

    @Test func aFirstLaunchLoadsTheDefaultDataAndLogsToTheSandbox() throws {
        let all = try items()
        #expect(all.count >= 100)
        #expect(try items(listed: true).isEmpty)
        let log = directory.url.appendingPathComponent("devices/kitchen/grocery-dude.log")
        #expect(try String(contentsOf: log, encoding: .utf8).contains("loaded default data"))
    }

    @Test func itemsCanBeAddedEditedListedCollectedClearedAndRemoved() throws {
        let empty = CommandRunner(dataDirectory: directory.path, device: "empty")
        func run(_ arguments: [String]) throws -> String {
            let result = try empty.run(["--no-default-data"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        #expect(
            try run([
                "item", "add", "Milk", "--qty", "2", "--unit", "L", "--home-location", "Fridge", "--shop-location",
                "Dairy",
            ])
            .hasPrefix("Added \"Milk\" (2 L, Fridge → Dairy, listed)"))
        _ = try run(["item", "add", "Salt", "--unlisted"])
        var milk = try #require(try items(empty).first { $0["name"] as? String == "Milk" })
        #expect(milk["quantity"] as? Double == 2 && milk["unit"] as? String == "L")
        #expect(milk["homeLocation"] as? String == "Fridge" && milk["shopLocation"] as? String == "Dairy")
        #expect(milk["listed"] as? Bool == true && milk["collected"] as? Bool == false)
        #expect(
            Set(milk.keys) == [
                "id", "name", "quantity", "unit", "homeLocation", "shopLocation", "listed",
                "collected", "modified", "note", "photoBytes", "aisles", "claimedBy",
            ])

        _ = try run(["item", "edit", "milk", "--qty", "1.5", "--name", "Oat Milk", "--unit", ""])
        milk = try #require(try items(empty).first { $0["id"] as? String == milk["id"] as? String })
        #expect(milk["name"] as? String == "Oat Milk" && milk["quantity"] as? Double == 1.5 && milk["unit"] is NSNull)

        #expect(try run(["item", "collect", "oat milk"]) == "Collected \"Oat Milk\"\n")
        #expect(try run(["item", "clear-collected"]) == "Removed 1 collected item from the shopping list.\n")
        #expect(try items(empty, listed: true).isEmpty)
        _ = try run(["item", "list", "Salt"])
        _ = try run(["item", "list", String((milk["id"] as! String).prefix(6))])
        #expect(try items(empty, listed: true).count == 2)
        _ = try run(["item", "unlist", "salt"])
        #expect(try run(["item", "clear-listed"]) == "Took 1 item off the shopping list.\n")
        #expect(try run(["item", "clear-listed"]) == "Nothing to clear: the shopping list is empty.\n")

        _ = try run(["item", "rm", "salt"])
        #expect(try items(empty).map { $0["name"] as! String } == ["Oat Milk"])
        #expect(try run(["home", "ls"]).contains("Fridge"))
        #expect(try run(["unit", "rm", "L"]) == "Removed unit \"L\"\n")
    }

    /// `item ls --json` is written a piece at a time: many pieces still make one array, every
    /// item once, in the order of names.
    @Test func aLongListIsOneJSONArray() throws {
        let many = CommandRunner(dataDirectory: directory.path, device: "many")
        let count = 700  // ~250 bytes each: more than two pieces of 64 KiB
        let file = directory.file("many.csv")
        let lines = (1...count).map {
            "item,Item \(String(format: "%04d", $0)),\($0 % 5 + 1),kg,Pantry,Aisle \($0 % 9),\($0 % 2 == 0)"
        }
        try (["kind,name,quantity,unit,homeLocation,shopLocation,listed"] + lines).joined(separator: "\n").write(
            to: file, atomically: true, encoding: .utf8)
        let imported = try many.run(["--no-default-data", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let all = try items(many)
        #expect(all.compactMap { $0["name"] as? String } == (1...count).map { "Item \(String(format: "%04d", $0))" })
        #expect(try items(many, listed: true).count == count / 2)
        let empty = CommandRunner(dataDirectory: directory.path, device: "none")
        #expect(try empty.run(["--no-default-data", "item", "ls", "--json"]).stdout == "[]\n")
    }

    /// Names, notes, units and dates that JSON must escape or that are not ASCII come back from
    /// `item ls --json` exactly as they were given, and the table prints them whole.
    @Test func textThatJSONEscapesReadsBackExactly() throws {
        let odd = CommandRunner(dataDirectory: directory.path, device: "odd")
        let name = #"Say "hi" \ Crème 👨‍👩‍👧"#
        let note = #"a "quoted" note\ 日本茶"#
        let added = try odd.run([
            "--no-default-data", "item", "add", name, "--qty", "0.333", "--unit", #"½ "cup""#, "--note", note,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let item = try #require(try items(odd).first)
        #expect(item["name"] as? String == name && item["note"] as? String == note)
        #expect(item["unit"] as? String == #"½ "cup""# && item["quantity"] as? Double == 0.333)
        let modified = try #require(item["modified"] as? String)
        #expect(modified.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(modified)")
        let table = try odd.output(["item", "ls"])
        #expect(table.contains(name) && table.contains(#"½ "cup""#) && table.contains("0.333"), "\(table)")
    }

    @Test func unitsAndLocationsHaveTheirCommands() throws {
        for kind in ["unit", "home", "shop"] {
            #expect(try ok([kind, "add", "Zed"]).hasPrefix("Added"))
            #expect(try ok([kind, "rename", "zed", "Zed Two"]).contains("\"Zed Two\""))
            #expect(try ok([kind, "ls"]).contains("Zed Two"))
            let json = try ok([kind, "ls", "--json"])
            let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
            #expect(entries.contains { $0["name"] as? String == "Zed Two" })
            #expect(try ok([kind, "rm", "zed two"]).hasPrefix("Removed"))
        }
    }

    static let badCommands: [[String]] = [
        ["item", "add", ""],
        ["item", "add", "   "],
        ["item", "add", "Line\nbreak"],
        ["item", "add", String(repeating: "a", count: 201)],
        ["item", "add", "Fish", "--qty", "-1"],
        ["item", "add", "Fish", "--qty", "nan"],
        ["item", "add", "Fish", "--qty", "1e9"],
        ["item", "add", "Fish", "--qty", "two"],
        ["item", "add", "Milk"],
        ["item", "edit", "No Such Thing", "--qty", "2"],
        ["item", "edit", "Milk"],
        ["item", "rm", "No Such Thing"],
        ["item", "list", ""],
        ["item", "collect", "Salt"],
        ["unit", "add", "kg"],
        ["unit", "rename", "kg", "g"],
        ["home", "rm", "Nowhere"],
        ["import", "/no/such/file.json"],
        ["import", "groceries.txt"],
        ["export", "--format", "xml"],
        ["--model-version", "7", "item", "ls"],
        ["--log-level", "loud", "item", "ls"],
        ["--device", ".hidden", "item", "ls"],
        ["--device", "a/b", "item", "ls"],
        // Names that become paths are limited in bytes, as file systems are.
        ["--device", String(repeating: "👪", count: 64), "item", "ls"],
        ["--store-name", String(repeating: "s", count: 300), "item", "ls"],
        ["account", "sign-in", String(repeating: "Famille ", count: 40)],
        ["--store-name", "Grocery.Dude", "item", "ls"],
        // The folder of the account's key-value store is no store's.
        ["--store-name", "KV", "item", "ls"],
    ]

    @Test(arguments: badCommands)
    func badInputGetsAOneLineErrorAndChangesNothing(_ arguments: [String]) throws {
        _ = try ok(["--no-default-data", "item", "add", "Milk", "--unit", "kg"])
        _ = try ok(["item", "add", "Salt", "--unlisted"])
        _ = try ok(["unit", "add", "g"])
        let before = try ok(["export"])
        let result = try cli.run(arguments)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("Error: "), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        #expect(try ok(["export"]) == before)
    }

    @Test func anAmbiguousReferenceListsTheCandidates() throws {
        let result = try cli.run(["item", "rm", "0"])  // too short for an ID, matches no name
        #expect(result.stderr.hasPrefix("Error: no item matches \"0\""))
        let file = directory.file("units.csv")
        try Data("kind,name\nunit,KG\n".utf8).write(to: file)
        _ = try ok(["import", file.path])
        let units = try ok(["unit", "ls"])
        #expect(units.contains("kg") && units.contains("KG"))
        let ambiguous = try cli.run(["unit", "rm", "Kg"])
        #expect(ambiguous.status != 0)
        #expect(ambiguous.stderr.contains("\"Kg\" matches 2 units: \"KG\""), "\(ambiguous.stderr)")
    }

    @Test func anUnwritableDataDirectoryIsAClearError() throws {
        let file = directory.file("not-a-folder")
        try Data("x".utf8).write(to: file)
        let result = try CommandRunner(dataDirectory: file.path + "/sub").run(["item", "ls"])
        #expect(result.status != 0)
        #expect(
            result.stderr.hasPrefix("Error: cannot write to \(file.path)/sub/devices/test-device"), "\(result.stderr)")
    }

    @Test func theEnvironmentPicksTheDeviceAndDataDirectory() throws {
        let result = try CommandRunner(dataDirectory: "", device: "").run(
            ["--no-default-data", "item", "add", "Tea"],
            environment: ["GROCERY_DUDE_DATA_DIR": directory.path, "GROCERY_DUDE_DEVICE": "pantry"], global: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/devices/pantry/local/GroceryDude.sqlite"))
    }

    @Test func theFullScreenAppNeedsATerminal() throws {
        let result = try cli.run(["tui"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("needs a terminal"))
    }

    @Test func exportThenImportIntoANewDeviceRoundTrips() throws {
        _ = try ok(["item", "add", "Crème fraîche", "--qty", "0.25", "--unit", "tub", "--note", "for the soup"])
        _ = try ok(["item", "collect", "crème fraîche"])
        for format in ["json", "csv"] {
            let file = directory.file("export.\(format)").path
            let export = try cli.run(["export", "--output", file])
            #expect(export.status == 0 && export.stderr.contains("Exported"))
            let copy = CommandRunner(dataDirectory: directory.path, device: "copy-\(format)")
            let imported = try copy.run(["--no-default-data", "import", file])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try copy.run(["export"]).stdout == (try ok(["export"])))
            let again = try copy.run(["import", file])
            #expect(again.stdout.contains("0 new, 0 updated"))
        }
    }

    @Test(.enabled(if: Fixtures.originalGroceryDude != nil))
    func theBookFilesImportWithoutDuplicates() throws {
        let runner = CommandRunner(dataDirectory: directory.path, device: "book")
        for file in ["DefaultData.xml", "DefaultData.sqlite", "DefaultData.xml"] {
            let path = Fixtures.originalGroceryDude!.appendingPathComponent(file).path
            let result = try runner.run(["--no-default-data", "import", path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try items(runner).count == 399)
        #expect(try runner.run(["unit", "ls"]).stdout.split(separator: "\n").count == 8)
    }

    @Test func anOlderModelVersionIsSiloedFromANewerStore() throws {
        let old = CommandRunner(dataDirectory: directory.path, device: "old")
        #expect(try old.run(["--model-version", "1", "--no-default-data", "item", "add", "Tea"]).status == 0)
        #expect(try old.run(["item", "edit", "tea", "--note", "green"]).status == 0, "upgrading to version 2 works")
        let refused = try old.run(["--model-version", "1", "item", "ls"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("newer than this app's version 1"))
    }
}
