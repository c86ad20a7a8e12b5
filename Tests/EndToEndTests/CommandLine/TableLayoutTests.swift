import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

/// The tables the command line prints are aligned in terminal columns, and never cut a grapheme
/// cluster: a family emoji, a flag, a decomposed accent and CJK characters, through the real
/// binary. Strings are built from explicit scalars; widths are counted here by hand.
@Suite("Tables from the command line")
struct TableLayoutTests {
    let directory = TemporaryDirectory("tables-cli")

    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    static let flag = "\u{1F1EB}\u{1F1F7}"

    /// Each name with the terminal columns it takes.
    static let names: [(String, Int)] = [
        (family + " Family", 9),
        (flag + " Brie", 7),
        ("Cafe\u{301}", 4),
        ("\u{65E5}\u{672C}\u{8336}", 6),  // 日本茶
        ("Tea", 3),
    ]

    func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func itemLsKeepsColumnsAlignedAndClustersWhole() throws {
        let kitchen = CommandRunner(
            dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
        for (name, _) in Self.names where name != "Cafe\u{301}" {
            try kitchen.output(["item", "add", name, "--home-location", "Pantry", "--shop-location", "Aisle 1"])
        }
        // The decomposed form as a peer or an older build stored it (the app stores NFC).
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        let store = try GroceryStore(path: sandbox.localStoreURL(storeName: "GroceryDude").path, defaultData: false)
        let pantry = try store.entries(.home).first!.id
        let aisle = try store.entries(.shop).first!.id
        try store.objects.save(author: "peer") { context in
            _ = try context.insert(
                GrocerySchema.Entity.item,
                values: [
                    "name": .string("Cafe\u{301}"), "quantity": .double(1), "listed": .bool(true),
                    "locationAtHome": .reference(pantry.globalID), "locationAtShop": .reference(aisle.globalID),
                ])
        }

        let lines = try kitchen.output(["item", "ls"]).split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + Self.names.count, "\(lines)")
        // NAME is 9 columns wide (the family's name), HOME 6 ("Pantry"); SHOP, the last, is not padded.
        #expect(lines[0].hasSuffix("NAME       HOME    SHOP"), "\(lines[0])")
        for (name, width) in Self.names {
            let expected = scalars(name + String(repeating: " ", count: 9 - width) + "  Pantry  Aisle 1")
            let matching = lines.filter {
                scalars($0).count >= expected.count && Array(scalars($0).suffix(expected.count)) == expected
            }
            #expect(matching.count == 1, "\(name): \(lines)")
            // What comes before the name is the same on every line: "• ", ID, QTY, UNIT.
            if let line = matching.first {
                #expect(
                    scalars(line).count - expected.count == scalars("\u{2022}  12345678  1    " + "    " + "  ").count,
                    "\(line)")
            }
        }
    }
}
