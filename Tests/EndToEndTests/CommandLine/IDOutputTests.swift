import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing

/// The IDs the commands print are the text of the IDs the store holds (lowercase UUIDs), in
/// `--json` output and tables alike, and a printed ID names its object again.
@Suite("IDs in command output")
struct IDOutputTests {
    let directory = TemporaryDirectory("id-output")

    @Test func printedIDsAreTheStoresAndNameTheirObjects() throws {
        let kitchen = CommandRunner(
            dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
        try kitchen.output(["item", "add", "Milk", "--unit", "L", "--home-location", "Fridge"])
        try kitchen.output(["item", "add", "Bread"])
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        let store = try GroceryStore(path: sandbox.localStoreURL(storeName: "GroceryDude").path, defaultData: false)
        let rows = try store.items()
        let units = try store.entries(.unit)
        let homes = try store.entries(.home)
        try store.close()

        let items = try kitchen.items()
        #expect(items.map { $0["id"] as? String } == rows.map(\.id.description))
        let listedUnits =
            try JSONSerialization.jsonObject(with: Data(try kitchen.output(["unit", "ls", "--json"]).utf8))
            as! [[String: Any]]
        #expect(listedUnits.map { $0["id"] as? String } == units.map(\.id.description))
        #expect(units.map(\.id.description).allSatisfy { UnitID($0)?.description == $0 }, "lowercase UUID text")
        let table = try kitchen.output(["home", "ls"])
        #expect(table.hasPrefix(String(homes[0].id.description.prefix(8)) + "  Fridge"), "\(table)")

        let milk = try #require(rows.first { $0.name == "Milk" })
        try kitchen.output(["item", "rm", milk.id.description.uppercased()])
        #expect(try kitchen.itemNames() == ["Bread"])
    }
}
