import Foundation
import TestSupport
import Testing

@testable import GroceryModel

/// Shops through import and export (archive version 2, the csv-aisles kind): everything a
/// shop's walking order and an item's aisles need comes back on a new device, matched by name.
@Suite("Shops in import and export")
struct ShopImportExportTests {
    let directory = TemporaryDirectory("shop-import-export")

    /// Two shops besides the renamed default, moved aisles in the default shop and in Aldi, an
    /// item in aisles of two shops, an empty shop and an aisle no item is in.
    func storeWithShops() throws -> GroceryStore {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000.125))
        let store = try GroceryStore.temporary(in: directory, name: "shops", clock: clock)
        var milk = ItemDraft(name: "Milk")
        milk.shopLocation = "Dairy"
        try store.addItem(milk)
        try store.addItem(ItemDraft(name: "Bread"))
        try store.addAisle("Frozen")
        try store.moveAisle("Frozen", to: .first)
        clock.advance(by: 1)
        let aldi = try store.addShop(name: "Aldi")
        try store.addShop(name: "Lidl")
        try store.renameShop("My shop", to: "Corner shop")
        for aisle in ["Aisle 2", "Aisle 10", "Produce"] { try store.addAisle(aisle, in: aldi.id) }
        try store.moveAisle("Produce", in: aldi.id, to: .first)
        try store.moveAisle("Aisle 2", in: aldi.id, to: .after("Aisle 10"))
        try store.setAisle(of: "Milk", in: aldi.id, to: "Aisle 10")
        try store.setAisle(of: "Bread", in: aldi.id, to: "Bakery")
        return store
    }

    /// What users see of a store's shops: each shop with its aisles in walking order, and
    /// every item's aisles by shop name.
    func shopsAsSeen(_ store: GroceryStore) throws -> [String] {
        var seen: [String] = []
        for shop in try store.shops() {
            let aisles = try store.aisles(in: shop.id).map {
                "\($0.name)@\($0.position.map { "\($0)" } ?? "-")×\($0.itemCount) \(Timestamp.string($0.modified))"
            }
            seen.append("\(shop.name) default=\(shop.isDefault) \(Timestamp.string(shop.modified)): \(aisles)")
        }
        let aisles = try store.otherShopsAisles()
        for row in try store.items() {
            seen.append("\(row.name) \(row.shopLocationName ?? "-") \(aisles[row.id.description] ?? [])")
        }
        return seen
    }

    @Test func jsonVersion2RoundTripsShopsPositionsAndItemsAisles() throws {
        let original = try storeWithShops()
        let exported = try original.exportArchive()
        #expect(exported.version == 2)
        #expect(exported.shops?.map(\.name) == ["Corner shop", "Aldi", "Lidl"])
        #expect(exported.shops?.first?.aisles == nil, "the default shop's aisles are shopLocations")
        #expect(exported.shopLocations.map(\.position) == [nil, 0], "Dairy in natural order, Frozen moved")
        #expect(
            exported.items.first { $0.name == "Milk" }?.aisles == [ItemAisleRecord(shop: "Aldi", aisle: "Aisle 10")])

        let file = directory.file("shops.json")
        try ArchiveFormat.json.write(exported).write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""version" : 2"#) && text.contains(#""default" : true"#), "\(text)")
        let copy = try GroceryStore.temporary(in: directory, name: "copy")
        try copy.importFile(path: file.path)
        #expect(try shopsAsSeen(copy) == (try shopsAsSeen(original)))
        #expect(try copy.exportArchive() == exported)

        let transactions = try copy.transactionCount()
        let again = try copy.importFile(path: file.path)
        #expect(again.shops.inserted == 0 && again.shops.updated == 0 && again.shopAisles.inserted == 0)
        #expect(again.items.updated == 0 && again.shopLocations.updated == 0)
        #expect(try copy.transactionCount() == transactions, "importing twice adds nothing")
    }

    @Test func aStoreBeforeModel3ExportsVersion1() throws {
        let store = try GroceryStore.temporary(in: directory, name: "two", modelVersion: 2)
        try store.addEntry(.shop, name: "Dairy")
        let archive = try store.exportArchive()
        #expect(archive.version == 1 && archive.shops == nil)
        let text = String(decoding: try ArchiveFormat.json.write(archive), as: UTF8.self)
        #expect(text.contains(#""version" : 1"#) && !text.contains("shops") && !text.contains("position"))
    }

    @Test func theAislesCSVRoundTripsTogetherWithTheItemsCSV() throws {
        let original = try storeWithShops()
        let archive = try original.exportArchive()
        let items = directory.file("items.csv")
        let aisles = directory.file("aisles.csv")
        try ArchiveFormat.csv.write(archive).write(to: items)
        try ArchiveFormat.csvAisles.write(archive).write(to: aisles)
        let text = try String(contentsOf: aisles, encoding: .utf8)
        #expect(
            text
                == """
                shop,aisle,position,item\r
                ,Frozen,0,\r
                ,Dairy,,Milk\r
                Aldi,Produce,0,\r
                Aldi,Aisle 10,,Milk\r
                Aldi,Bakery,,Bread\r
                Aldi,Aisle 2,3,\r
                Lidl,,,\r

                """)
        let copy = try GroceryStore.temporary(in: directory, name: "copy")
        try copy.importFile(path: items.path)
        try copy.importFile(path: aisles.path)  // a .csv file with a shop column: csv-aisles
        func names(_ store: GroceryStore) throws -> [String] {
            var seen: [String] = []
            for shop in try store.shops() {
                let aisles = try store.aisles(in: shop.id).map { "\($0.name)@\($0.position.map { "\($0)" } ?? "-")" }
                seen.append("\(shop.isDefault ? "default" : shop.name): \(aisles)")
            }
            let others = try store.otherShopsAisles()
            return seen
                + (try store.items().map {
                    "\($0.name) \($0.shopLocationName ?? "-") \(others[$0.id.description] ?? [])"
                })
        }
        #expect(try names(copy) == (try names(original)))
        #expect(try copy.shop(nil).name == "My shop", "the CSV leaves the default shop's name to the list")
        let transactions = try copy.transactionCount()
        try copy.importFile(path: aisles.path, format: .csvAisles)
        #expect(try copy.transactionCount() == transactions, "importing twice adds nothing")
    }

    @Test func aVersion2FileWithOtherShopsIntoAModel2StoreImportsNothing() throws {
        let file = directory.file("shops.json")
        try ArchiveFormat.json.write(try storeWithShops().exportArchive()).write(to: file)
        let old = try GroceryStore.temporary(in: directory, name: "old", modelVersion: 2)
        try old.addItem(ItemDraft(name: "Existing"))
        let transactions = try old.transactionCount()
        #expect(
            throws: GroceryError.importFailed(
                file: file.path,
                reason:
                    #"shop 2 ("Aldi"): this device's store is at model version 2, which has no shop but the default one, "My shop" (shops came with version 3)"#
            )
        ) { try old.importFile(path: file.path) }
        #expect(try old.transactionCount() == transactions)
        #expect(try old.items().map(\.name) == ["Existing"])
    }

    @Test func aVersion2FileWithTheDefaultShopOnlyIntoAModel2StoreTakesItsAisles() throws {
        let old = try GroceryStore.temporary(in: directory, name: "old", modelVersion: 2)
        let file = directory.file("default.json")
        try Data(
            #"""
            {"format": "grocery-dude", "version": 2,
             "shopLocations": [{"name": "Dairy", "position": 3}],
             "shops": [{"name": "Corner shop", "default": true}],
             "items": [{"name": "Milk", "aisles": [{"shop": "Corner shop", "aisle": "Dairy"}]}]}
            """#.utf8
        ).write(to: file)
        try old.importFile(path: file.path)
        #expect(try old.resolveItem("Milk").shopLocationName == "Dairy", "the default shop's aisle is shopLocation")
        #expect(try old.aisles().map(\.position) == [nil], "no walking order before model version 3")
    }

    @Test func aFilesDefaultShopNamedLikeAnotherShopImportsNothing() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.addShop(name: "Aldi")
        var archive = GroceryArchive()
        archive.version = 2
        archive.shops = [ShopRecord(name: "Aldi", isDefault: true)]
        #expect(
            throws: GroceryError.importFailed(
                file: "f", reason: #"shop 1 ("Aldi"): the default shop's name "Aldi" is another shop's in this list"#)
        ) { try store.importArchive(archive, source: "f") }
        #expect(try store.shop(nil).name == "My shop")
    }

    @Test func anItemsAisleInAShopTheFileDoesNotListIsMadeThere() throws {
        let store = try GroceryStore.temporary(in: directory)
        var archive = GroceryArchive()
        archive.version = 2
        var milk = ItemRecord(name: "Milk")
        milk.aisles = [
            ItemAisleRecord(shop: "Lidl", aisle: "Aisle 1"), ItemAisleRecord(shop: "My shop", aisle: "Dairy"),
        ]
        archive.items = [milk]
        let summary = try store.importArchive(archive, source: "f")
        #expect(summary.shops.inserted == 1 && summary.shopAisles.inserted == 1 && summary.shopLocations.inserted == 1)
        #expect(try store.resolveItem("Milk").shopLocationName == "Dairy", "the default shop's aisle, by its name")
        #expect(try store.otherShopsAisles().values.first == [ItemAisle(shop: "Lidl", aisle: "Aisle 1")])
    }

    // MARK: - Hostile files

    static let hostileFiles: [(name: String, contents: String, reason: String)] = [
        (
            "nameless-shop.json", #"{"format":"grocery-dude","version":2,"shops":[{"default":false}]}"#,
            "shops[0].name is missing"
        ),
        (
            "blank-shop.json", #"{"format":"grocery-dude","version":2,"shops":[{"name":" "}]}"#,
            #"shop 1 (" "): invalid shop name: it is blank"#
        ),
        (
            "huge-position.json",
            #"{"format":"grocery-dude","version":2,"shops":[{"name":"Aldi","aisles":[{"name":"A","position":1e300}]}]}"#,
            #"shop 1 ("Aldi"), aisle 1: invalid position: 1e+300 is more than 1000000000000000.0"#
        ),
        (
            "text-position.json",
            #"{"format":"grocery-dude","version":2,"shops":[{"name":"Aldi","aisles":[{"name":"A","position":"NaN"}]}]}"#,
            "shops[0].aisles[0].position should be a number"
        ),
        (
            "unit-position.json", #"{"format":"grocery-dude","version":2,"units":[{"name":"kg","position":1}]}"#,
            "unit 1: only aisles have a position"
        ),
        (
            "two-aisles.json",
            #"{"format":"grocery-dude","version":2,"items":[{"name":"Milk","aisles":[{"shop":"A","aisle":"1"},{"shop":"A","aisle":"2"}]}]}"#,
            #"item 1 ("Milk"): its aisle 2 is a second one in "A""#
        ),
        (
            "differ.json",
            #"{"format":"grocery-dude","version":2,"items":[{"name":"Milk","shopLocation":"Dairy","aisles":[{"shop":"My shop","aisle":"Chilled"}]}]}"#,
            #"item 1 ("Milk"): its shopLocation and its aisle in the default shop ("Chilled") differ"#
        ),
        (
            "newer.json", #"{"format":"grocery-dude","version":3}"#,
            "version: written by a newer Grocery Dude (file version 3, this one reads up to 2): update Grocery Dude to import it"
        ),
        (
            "inf.csv", "shop,aisle,position,item\nAldi,A1,inf,\n",
            #"line 2: position "inf" is not a plain decimal number within ±1e15"#
        ),
        (
            "nan.csv", "shop,aisle,position\nAldi,A1,nan\n",
            #"line 2: position "nan" is not a plain decimal number within ±1e15"#
        ),
        ("no-aisle.csv", "shop,aisle,item\nAldi,A1,Milk\nAldi,,Bread\n", #"line 3: the item "Bread" has no aisle"#),
        (
            "bad-shop.csv", "shop,aisle,item\n\"Al\ndi\",A1,Milk\n",
            #"line 2: invalid shop name: "Al\ndi" contains a control character (U+A)"#
        ),
        (
            "two-positions.csv", "shop,aisle,position\nAldi,A1,1\nAldi,A1,2\n",
            #"line 3: aisle "A1" of "Aldi" has another position on line 2"#
        ),
        (
            "second-aisle.csv", "shop,aisle,item\n,Dairy,Milk\n,Chilled,Milk\n",
            #"line 3: "Milk" is in a second aisle of the default shop (line 2 has the first)"#
        ),
        ("columns.csv", "shop,aisle,item\nAldi,A1\n", "line 2: 2 fields, the header has 3"),
        (
            "unknown.csv", "shop,aisle,shelf\nAldi,A1,3\n",
            #"line 1: unknown column "shelf"; columns are shop,aisle,position,item"#
        ),
    ]

    @Test(arguments: hostileFiles)
    func aHostileShopsFileImportsNothing(_ file: (name: String, contents: String, reason: String)) throws {
        let store = try GroceryStore.temporary(in: directory, name: "target")
        try store.addItem(ItemDraft(name: "Existing"))
        let before = try shopsAsSeen(store)
        let transactions = try store.transactionCount()
        let url = directory.file(file.name)
        try Data(file.contents.utf8).write(to: url)
        #expect(throws: GroceryError.importFailed(file: url.path, reason: file.reason)) {
            try store.importFile(path: url.path)
        }
        #expect(try shopsAsSeen(store) == before)
        #expect(try store.transactionCount() == transactions)
    }

    @Test func aisleCSVWithoutAShopColumnIsRefusedAsAisles() throws {
        let url = directory.file("items.csv")
        try Data("kind,name\nitem,Milk\n".utf8).write(to: url)
        #expect(throws: ArchiveError.malformed(#"line 1: the header has no "shop" column"#)) {
            try ArchiveFormat.csvAisles.read(path: url.path)
        }
    }
}
