import Foundation
import TestSupport
import Testing

/// Shops through `export` and `import` (JSON version 2, `--format csv-aisles`): a device made
/// from another's export shows the same shops, walking orders and items' aisles.
@Suite("Shops in export and import")
struct ShopsImportExportTests {
    let directory = TemporaryDirectory("shops-transfer")
    var cloud: String { directory.file("Cloud").path }

    func device(_ name: String) -> CommandRunner {
        CommandRunner.device(name, in: directory.path, cloud: cloud)
    }

    /// A command's JSON output with the IDs left out: they differ between devices.
    func withoutIDs(_ runner: CommandRunner, _ arguments: [String]) throws -> String {
        let rows = try JSONSerialization.jsonObject(with: Data(try runner.output(arguments).utf8)) as! [[String: Any]]
        let kept = rows.map { $0.filter { $0.key != "id" } }
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The kitchen's list: a renamed default shop with a moved aisle, Aldi with moved aisles
    /// and items in them, an empty Lidl.
    func kitchenWithShops() throws -> CommandRunner {
        let kitchen = device("kitchen")
        try kitchen.output(["item", "add", "Milk", "--aisle", "Dairy"])
        try kitchen.output(["aisle", "add", "Frozen"])
        try kitchen.output(["aisle", "move", "Frozen", "--first"])
        try kitchen.output(["shops", "rename", "My shop", "Corner shop"])
        try kitchen.output(["shops", "new", "Aldi"])
        try kitchen.output(["shops", "new", "Lidl"])
        try kitchen.output(["item", "edit", "Milk", "--aisle", "Chilled", "--in", "Aldi"])
        try kitchen.output(["item", "add", "Bread", "--aisle", "Bakery", "--in", "Aldi"])
        try kitchen.output(["aisle", "add", "Produce", "--in", "Aldi"])
        try kitchen.output(["aisle", "move", "Produce", "--in", "Aldi", "--first"])
        try kitchen.output(["aisle", "move", "Bakery", "--in", "Aldi", "--last"])
        return kitchen
    }

    @Test func aJSONExportMakesADeviceWithTheSameShopsAislesAndItems() throws {
        let kitchen = try kitchenWithShops()
        let file = directory.file("groceries.json").path
        try kitchen.output(["export", "-o", file])
        let laptop = device("laptop")
        let imported = try laptop.output(["import", file])
        #expect(imported.contains("3 shops (2 new, 1 updated, 0 unchanged)"), "\(imported)")
        for command in [
            ["shops", "ls", "--json"], ["aisle", "ls", "--in", "Aldi", "--json"], ["aisle", "ls", "--json"],
            ["item", "ls", "--json"], ["item", "ls", "--in", "Aldi", "--json"],
        ] {
            #expect(try withoutIDs(laptop, command) == (try withoutIDs(kitchen, command)), "\(command)")
        }
        let again = try laptop.output(["import", file])
        #expect(again.contains("3 shops (0 new, 0 updated, 3 unchanged)"), "importing twice adds nothing: \(again)")
    }

    @Test func theAislesCSVCarriesEveryShopsAislesAndItems() throws {
        let kitchen = try kitchenWithShops()
        let csv = try kitchen.output(["export", "--format", "csv-aisles"])
        #expect(
            csv.hasPrefix("shop,aisle,position,item\r\n,Frozen,0,\r\n,Dairy,,Milk\r\nAldi,Produce,0,\r\n"), "\(csv)")
        let items = directory.file("items.csv").path
        let aisles = directory.file("aisles.csv").path
        try kitchen.output(["export", "-o", items])
        try kitchen.output(["export", "--format", "csv-aisles", "-o", aisles])
        let phone = device("phone")
        try phone.output(["import", items])
        try phone.output(["import", aisles])
        // The CSV has no dates and leaves the default shop's name to the list: the rest is alike.
        func aisleRows(_ runner: CommandRunner, _ shop: [String]) throws -> [String] {
            let rows =
                try JSONSerialization.jsonObject(
                    with: Data(try runner.output(["aisle", "ls", "--json"] + shop).utf8)) as! [[String: Any]]
            return rows.map { "\($0["name"]!) \($0["position"]!) \($0["items"]!)" }
        }
        for shop in [[], ["--in", "Aldi"], ["--in", "Lidl"]] {
            #expect(try aisleRows(phone, shop) == (try aisleRows(kitchen, shop)), "\(shop)")
        }
        let inAldi = ["item", "ls", "--in", "Aldi", "--json"]
        let names = { (runner: CommandRunner) in
            try (JSONSerialization.jsonObject(with: Data(try runner.output(inAldi).utf8)) as! [[String: Any]])
                .map { $0["name"] as! String }
        }
        #expect(try names(phone) == (try names(kitchen)))
        #expect(try names(phone) == ["Milk", "Bread"], "Produce, Chilled, Bakery")
        let shops = try JSONSerialization.jsonObject(with: Data(try phone.output(["shops", "ls", "--json"]).utf8))
        #expect((shops as? [[String: Any]])?.map { $0["name"] as! String } == ["My shop", "Aldi", "Lidl"])
        // A row naming a shop without an aisle for its item is refused, with its line.
        let bad = directory.file("bad.csv").path
        try Data("shop,aisle,item\nAldi,Chilled,Milk\nAldi,,Eggs\n".utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try phone.run(["import", bad])
        #expect(
            refused.status != 0 && refused.stderr.contains("line 3: the item \"Eggs\" has no aisle"),
            "\(refused.stderr)")
        #expect(try !phone.itemNames().contains("Eggs"))
    }

    @Test func aVersion2FileWithShopsIntoAModel2DeviceImportsNothing() throws {
        let kitchen = try kitchenWithShops()
        let file = directory.file("groceries.json").path
        try kitchen.output(["export", "-o", file])
        let old = device("old")
        let refused = try old.run(["--model-version", "2", "import", file])
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(
            refused.stderr.contains(
                #"shop 2 ("Aldi"): this device's store is at model version 2, which has no shop but the default one"#)
                && refused.stderr.contains("nothing was imported"), "\(refused.stderr)")
        #expect(try old.itemNames(["--model-version", "2"]).isEmpty)
    }
}
