import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

@Suite("Import and export with fixtures of our own")
struct ImportExportTests {
    let directory = TemporaryDirectory("import-export")

    /// A store with something of everything: links, a photo, a note, flags, an unused unit.
    func richStore() throws -> GroceryStore {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000.125))
        let store = try GroceryStore.temporary(in: directory, name: "rich", clock: clock)
        var draft = ItemDraft(name: "Crème fraîche, \"extra\"")
        draft.quantity = 1.25
        draft.unit = "tub"
        draft.homeLocation = "冷蔵庫"
        draft.shopLocation = "Dairy"
        draft.note = "line one"
        try store.addItem(draft)
        clock.advance(by: 3.5)
        try store.addItem(ItemDraft(name: "Bread 🍞"))
        try store.setCollected("bread 🍞", true)
        var unlisted = ItemDraft(name: "Salt")
        unlisted.listed = false
        unlisted.homeLocation = "Spice Rack"
        try store.addItem(unlisted)
        try store.addEntry(.unit, name: "unused unit")
        try store.addEntry(.shop, name: "Aisle 9")
        var archive = GroceryArchive()
        var photo = ItemRecord(name: "Salt")
        photo.photo = Data((0..<2048).map { UInt8($0 % 251) })
        archive.items = [photo]
        try store.importArchive(archive, source: "photo")
        return store
    }

    @Test(arguments: [ArchiveFormat.json, .csv])
    func exportThenImportIntoANewStoreRoundTripsEverything(_ format: ArchiveFormat) throws {
        let original = try richStore()
        let exported = try original.exportArchive()
        #expect(exported.items.first { $0.name == "Salt" }?.photo?.count == 2048)

        let file = directory.file("export.\(format.rawValue)")
        try format.write(exported).write(to: file)
        let copy = try GroceryStore.temporary(in: directory, name: "copy")
        try copy.importFile(path: file.path)
        #expect(try copy.exportArchive() == exported)
        #expect(try copy.counts() == (try original.counts()))

        let transactions = try copy.transactionCount()
        let again = try copy.importFile(path: file.path)
        #expect(again.items.inserted == 0 && again.items.updated == 0)
        #expect(try copy.transactionCount() == transactions, "a no-op import records no transaction")
    }

    @Test func theBookXMLFormatIsRead() throws {
        let file = directory.file("small.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <items>
                <item name="Apples" unit="kg" locationathome="Fruit Bowl" locationatshop="Produce"/>
                <item name="Fish &amp; Chips" unit="" locationathome="" locationatshop="Frozen"/>
            </items>
            """.utf8
        ).write(to: file)
        let store = try GroceryStore.temporary(in: directory)
        try store.importFile(path: file.path)
        let rows = try store.items()
        #expect(rows.map(\.name) == ["Apples", "Fish & Chips"])
        #expect(rows[1].unitName == nil && rows[1].homeLocationName == nil && rows[1].shopLocationName == "Frozen")
        #expect(try store.counts() == [2, 1, 1, 2])
        #expect(try store.aisles(in: .defaultShop).map(\.name) == ["Frozen", "Produce"], "the default shop's aisles")
    }

    @Test func aCoreDataStoreWithModifiedDatesAndPhotosIsRead() throws {
        let path = directory.file("Grocery-Dude.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    INSERT INTO Z_PRIMARYKEY VALUES (1,'Item',0,2),(2,'Item_Photo',0,1),(3,'Location',0,2),(4,'LocationAtHome',3,0),(5,'LocationAtShop',3,0),(6,'Unit',0,1);
                    CREATE TABLE ZUNIT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMODIFIED TIMESTAMP, ZNAME VARCHAR);
                    INSERT INTO ZUNIT VALUES (1, 6, 1, 700000000, 'kg');
                    CREATE TABLE ZLOCATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMODIFIED TIMESTAMP, ZSUMMARY VARCHAR, ZSTOREDIN VARCHAR, ZAISLE VARCHAR);
                    INSERT INTO ZLOCATION VALUES (1, 4, 1, 700000000, NULL, 'Pantry', NULL), (2, 5, 1, 700000000, NULL, NULL, 'Aisle 2');
                    CREATE TABLE ZITEM_PHOTO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEM INTEGER, ZDATA BLOB);
                    INSERT INTO ZITEM_PHOTO VALUES (1, 2, 1, 1, X'01FFD8FFE0');
                    CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLLECTED INTEGER, ZLISTED INTEGER, ZLOCATIONATHOME INTEGER, ZLOCATIONATSHOP INTEGER, ZPHOTO INTEGER, ZUNIT INTEGER, ZMODIFIED TIMESTAMP, ZQUANTITY FLOAT, ZNAME VARCHAR, ZTHUMBNAIL BLOB);
                    INSERT INTO ZITEM VALUES (1, 1, 1, 1, 1, 1, 2, 1, 1, 700000000.5, 1.5, 'Flour', NULL), (2, 1, 1, 0, 0, NULL, NULL, NULL, NULL, 700000001, 3, 'Candles', NULL);
                    """)
        }
        try queue.close()
        let store = try GroceryStore.temporary(in: directory)
        try store.importFile(path: path)
        let flour = try store.resolveItem("flour")
        #expect(flour.item.quantity == 1.5 && flour.item.listed && flour.item.collected)
        #expect(flour.unitName == "kg" && flour.homeLocationName == "Pantry" && flour.shopLocationName == "Aisle 2")
        #expect(flour.item.modified == Timestamp.rounded(Date(timeIntervalSinceReferenceDate: 700_000_000.5)))
        #expect(flour.photoSize == 4)
        #expect(try store.aisles(in: .defaultShop).map(\.name) == ["Aisle 2"], "the default shop's aisles")
        let candles = try store.resolveItem("candles")
        #expect(!candles.item.listed && candles.unitName == nil && candles.photoSize == nil)
    }

    // MARK: - Bad files

    static let badFiles: [(String, String)] = [
        ("truncated.json", #"{"format":"grocery-dude","version":1,"items":[{"name":"Milk""#),
        ("wrong.json", #"{"format":"something-else","version":1}"#),
        ("newer.json", #"{"format":"grocery-dude","version":99}"#),
        ("badtype.json", #"{"format":"grocery-dude","version":1,"items":[{"name":"Milk","quantity":"two"}]}"#),
        ("baddate.json", #"{"format":"grocery-dude","version":1,"items":[{"name":"Milk","modified":"yesterday"}]}"#),
        ("quote.csv", "kind,name\nitem,\"Milk\nitem,Eggs\n"),
        ("columns.csv", "kind,name,quantity\nitem,Milk\n"),
        ("header.csv", "kind,nom\nitem,Milk\n"),
        ("quantity.csv", "kind,name,quantity\nitem,Milk,lots\n"),
        ("kind.csv", "kind,name\nfruit,Apple\n"),
        ("empty.csv", ""),
        ("broken.xml", "<items><item name=\"Milk\"></items>"),
        ("other.xml", "<recipes><recipe name=\"Cake\"/></recipes>"),
        ("noname.xml", "<items><item unit=\"kg\"/></items>"),
        ("garbage.sqlite", "definitely not a database, but long enough to have a header of sorts"),
    ]

    @Test(arguments: badFiles)
    func aMalformedFileImportsNothing(_ file: (name: String, contents: String)) throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.addItem(ItemDraft(name: "Existing"))
        let before = try store.exportArchive()
        let transactions = try store.transactionCount()
        let url = directory.file(file.name)
        try Data(file.contents.utf8).write(to: url)
        do {
            try store.importFile(path: url.path)
            Issue.record("\(file.name) was imported")
        } catch let error as GroceryError {
            guard case .importFailed(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == url.path)
            #expect(!reason.isEmpty && !reason.contains("\n"), "one line: \(reason)")
        }
        #expect(try store.exportArchive() == before)
        #expect(try store.transactionCount() == transactions)
    }

    @Test func anInvalidRecordLateInAFileImportsNothing() throws {
        let store = try GroceryStore.temporary(in: directory)
        let url = directory.file("late.csv")
        try Data("kind,name,quantity,unit\nitem,Milk,1,L\nitem,Eggs,12,\nitem,Bad,-3,\n".utf8).write(to: url)
        #expect(
            throws: GroceryError.importFailed(
                file: url.path, reason: "item 3 (\"Bad\"): invalid quantity: -3 is negative")
        ) {
            try store.importFile(path: url.path)
        }
        #expect(try store.counts() == [0, 0, 0, 0])
        #expect(try store.transactionCount() == 0)
    }

    @Test func anUnknownExtensionAsksForAFormat() throws {
        #expect(throws: GroceryError.unknownFormat(file: "groceries.txt")) {
            try ArchiveFormat.detect(path: "groceries.txt")
        }
    }

    @Test func importingKeepsWhatTheFileLeavesOut() throws {
        let store = try GroceryStore.temporary(in: directory)
        var draft = ItemDraft(name: "Milk")
        draft.unit = "L"
        try store.addItem(draft)
        var archive = GroceryArchive()
        var record = ItemRecord(name: "Milk")
        record.quantity = 3
        archive.items = [record]
        try store.importArchive(archive, source: "partial")
        let milk = try store.resolveItem("Milk")
        #expect(milk.item.quantity == 3 && milk.unitName == "L")
    }
}
