import Foundation
import GRDB
import TestSupport
import Testing

@testable import GroceryModel

/// Import files built to break the readers: damaged or hostile Core Data stores, XML, JSON and
/// CSV. Each must be refused with a message saying where, leave no temp copy behind, and leave
/// the store imported into as it was.
@Suite("Hostile import files")
struct HostileImportFileTests {
    let directory = TemporaryDirectory("hostile-import")

    // MARK: - Helpers

    /// A Core Data store with the original app's schema (as `DefaultData.sqlite` has it): one
    /// unit "kg", home location "Pantry", aisle "Aisle 2" and item "Flour" (`Z_PK` 12), then
    /// `damage` run on it.
    func coreDataStore(_ damage: String = "", name: String = "Hostile") throws -> String {
        let path = directory.file("\(name).sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    INSERT INTO Z_PRIMARYKEY VALUES (1,'Item',0,12),(2,'Item_Photo',0,1),(3,'Location',0,2),(4,'LocationAtHome',3,0),(5,'LocationAtShop',3,0),(6,'Unit',0,1);
                    CREATE TABLE ZUNIT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                    INSERT INTO ZUNIT VALUES (1, 6, 1, 'kg');
                    CREATE TABLE ZLOCATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSUMMARY VARCHAR, ZSTOREDIN VARCHAR, ZAISLE VARCHAR);
                    INSERT INTO ZLOCATION VALUES (1, 4, 1, NULL, 'Pantry', NULL), (2, 5, 1, NULL, NULL, 'Aisle 2');
                    CREATE TABLE ZITEM_PHOTO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEM INTEGER, ZDATA BLOB);
                    CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLLECTED INTEGER, ZLISTED INTEGER, ZLOCATIONATHOME INTEGER, ZLOCATIONATSHOP INTEGER, ZPHOTO INTEGER, ZUNIT INTEGER, ZQUANTITY FLOAT, ZNAME VARCHAR, ZTHUMBNAIL BLOB);
                    INSERT INTO ZITEM VALUES (12, 1, 1, 0, 1, 1, 2, NULL, 1, 1.5, 'Flour', NULL);
                    """)
            if !damage.isEmpty { try db.execute(sql: damage) }
        }
        try queue.close()
        return path
    }

    /// The store's item 12 gets photo 1, whose `ZDATA` is 0x02 then `reference` (an external file).
    func storeWithExternalPhoto(_ reference: [UInt8]) throws -> String {
        let hex = ([0x02] + reference).map { String(format: "%02X", $0) }.joined()
        return try coreDataStore(
            "INSERT INTO ZITEM_PHOTO VALUES (1, 2, 1, 12, X'\(hex)'); UPDATE ZITEM SET ZPHOTO = 1;")
    }

    /// The folder Core Data keeps a store's external photos in, created.
    func externalDataFolder(store name: String = "Hostile") throws -> URL {
        let folder = directory.url.appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `bytes` to a file in the test's folder and returns its path.
    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = directory.file(name)
        try bytes.write(to: url)
        return url.path
    }

    /// Reads a Core Data store with a temp folder of its own; asserts the error and that no
    /// temp copy is left behind.
    func expectCoreDataRefused(_ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let temporary = TemporaryDirectory("hostile-tmp")
        #expect(throws: ArchiveError.malformed(reason), sourceLocation: sourceLocation) {
            try CoreDataStoreReader.read(path: path, temporaryDirectory: temporary.url)
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? ["(unreadable)"]
        #expect(left.isEmpty, "temp copies left behind: \(left)", sourceLocation: sourceLocation)
    }

    /// Imports `path` into a store holding one item and asserts that the import fails with
    /// `reason` and changes nothing.
    func expectImportRefused(_ path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let store = try GroceryStore.temporary(in: directory, name: "target-\(UUID().uuidString.prefix(8))")
        try store.addItem(ItemDraft(name: "Existing"))
        let before = try store.exportArchive()
        let transactions = try store.transactionCount()
        #expect(throws: GroceryError.importFailed(file: path, reason: reason), sourceLocation: sourceLocation) {
            try store.importFile(path: path)
        }
        #expect(try store.exportArchive() == before, sourceLocation: sourceLocation)
        #expect(try store.transactionCount() == transactions, sourceLocation: sourceLocation)
    }

    // MARK: - Core Data: values of the wrong type

    static let badValues: [(damage: String, reason: String)] = [
        (
            "UPDATE ZLOCATION SET Z_ENT = NULL WHERE Z_PK = 2",
            "ZLOCATION row 2, column Z_ENT: the value is missing (NULL)"
        ),
        (
            "UPDATE ZLOCATION SET Z_ENT = 'home' WHERE Z_PK = 1",
            #"ZLOCATION row 1, column Z_ENT: "home" is not a number"#
        ),
        ("UPDATE ZITEM SET ZQUANTITY = 'abc'", #"ZITEM row 12, column ZQUANTITY: "abc" is not a number"#),
        ("UPDATE ZITEM SET ZQUANTITY = 9e999", "ZITEM row 12, column ZQUANTITY: inf is not a finite number"),
        ("UPDATE ZITEM SET ZQUANTITY = x'00'", "ZITEM row 12, column ZQUANTITY: binary data (1 bytes) is not a number"),
        ("UPDATE ZITEM SET ZLISTED = 0.5", "ZITEM row 12, column ZLISTED: 0.5 is not a whole number"),
        ("UPDATE ZITEM SET ZUNIT = 'kg'", #"ZITEM row 12, column ZUNIT: "kg" is not a number"#),
        ("UPDATE ZITEM SET ZNAME = x'ff41'", "ZITEM row 12, column ZNAME: binary data (2 bytes) is not text"),
        (
            "UPDATE ZITEM SET ZNAME = CAST(x'466cff' AS TEXT)",
            "ZITEM row 12, column ZNAME: the text is not valid UTF-8 (byte offset 2)"
        ),
        (
            "DROP TABLE ZUNIT; CREATE TABLE ZUNIT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME); INSERT INTO ZUNIT VALUES (1, 6, 1, 42)",
            "ZUNIT row 1, column ZNAME: the number 42 is not text"
        ),
        (
            "UPDATE ZUNIT SET ZNAME = CAST(x'ff' AS TEXT)",
            "ZUNIT row 1, column ZNAME: the text is not valid UTF-8 (byte offset 0)"
        ),
        (
            "UPDATE ZLOCATION SET ZAISLE = CAST(x'41eda080' AS TEXT) WHERE Z_PK = 2",
            "ZLOCATION row 2, column ZAISLE: the text is not valid UTF-8 (byte offset 1)"
        ),
        (
            "UPDATE Z_PRIMARYKEY SET Z_NAME = x'ff' WHERE Z_ENT = 4",
            "Z_PRIMARYKEY row 4, column Z_NAME: binary data (1 bytes) is not text"
        ),
        (
            "DROP TABLE ZUNIT; CREATE TABLE ZUNIT (Z_PK, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR); INSERT INTO ZUNIT VALUES ('one', 6, 1, 'kg')",
            #"ZUNIT row at position 1, column Z_PK: "one" is not a number"#
        ),
        (
            "DROP TABLE ZUNIT; CREATE TABLE ZUNIT (Z_PK, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR); INSERT INTO ZUNIT VALUES (NULL, 6, 1, 'kg')",
            "ZUNIT row at position 1, column Z_PK: the value is missing (NULL)"
        ),
        (
            "INSERT INTO ZITEM_PHOTO VALUES (1, 2, 1, 12, 'not bytes'); UPDATE ZITEM SET ZPHOTO = 1",
            #"ZITEM_PHOTO row 1, column ZDATA: the text "not bytes" is not binary data"#
        ),
        (
            "ALTER TABLE ZITEM ADD COLUMN ZMODIFIED TIMESTAMP; UPDATE ZITEM SET ZMODIFIED = 1e300",
            "ZITEM row 12, column ZMODIFIED: 1e+300 seconds since 2001 is not a date from 1970 to 9999"
        ),
        (
            "ALTER TABLE ZUNIT ADD COLUMN ZMODIFIED TIMESTAMP; UPDATE ZUNIT SET ZMODIFIED = -978307201",
            "ZUNIT row 1, column ZMODIFIED: -978307201.0 seconds since 2001 is not a date from 1970 to 9999"
        ),
        (
            "ALTER TABLE ZITEM ADD COLUMN ZMODIFIED TIMESTAMP; UPDATE ZITEM SET ZMODIFIED = 'yesterday'",
            #"ZITEM row 12, column ZMODIFIED: "yesterday" is not a number"#
        ),
    ]

    @Test(arguments: badValues)
    func aValueOfTheWrongTypeIsAnErrorNamingTableRowAndColumn(_ bad: (damage: String, reason: String)) throws {
        let path = try coreDataStore(bad.damage)
        expectCoreDataRefused(path, bad.reason)
        try expectImportRefused(path, bad.reason)
    }

    @Test func nullsInOptionalColumnsStayFine() throws {
        let path = try coreDataStore(
            "UPDATE ZITEM SET ZUNIT = NULL, ZQUANTITY = NULL, ZLISTED = NULL, ZLOCATIONATSHOP = NULL; UPDATE ZUNIT SET ZNAME = NULL"
        )
        let archive = try CoreDataStoreReader.read(path: path)
        #expect(archive.units.isEmpty)
        let flour = try #require(archive.items.first)
        #expect(flour.name == "Flour" && flour.quantity == 1 && flour.listed == true)
        #expect(flour.unit == nil && flour.homeLocation == "Pantry" && flour.shopLocation == nil)
    }

    @Test func theDatesInRangeAreRead() throws {
        // 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z, as seconds since 2001.
        let path = try coreDataStore(
            """
            ALTER TABLE ZITEM ADD COLUMN ZMODIFIED TIMESTAMP; UPDATE ZITEM SET ZMODIFIED = -978307200;
            ALTER TABLE ZUNIT ADD COLUMN ZMODIFIED TIMESTAMP; UPDATE ZUNIT SET ZMODIFIED = 252423993599;
            """)
        let archive = try CoreDataStoreReader.read(path: path)
        #expect(archive.items.first?.modified == Date(timeIntervalSince1970: 0))
        #expect(archive.units.first?.modified == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test func aFileThatIsNotARegularFileIsRefused() throws {
        let folder = directory.url.appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        expectCoreDataRefused(folder.path, "cannot read the file (not a readable regular file)")
    }

    // MARK: - Core Data: photos stored in external files

    static let badExternalNames: [(name: [UInt8], reason: String)] = [
        (
            Array("../../../../etc/hostname".utf8),
            #"ZITEM row 12, column ZPHOTO: the photo's external file "../../../../etc/hostname" is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        (
            Array("/etc/hostname".utf8),
            #"ZITEM row 12, column ZPHOTO: the photo's external file "/etc/hostname" is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        (
            Array("..".utf8),
            #"ZITEM row 12, column ZPHOTO: the photo's external file ".." is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        (
            [],
            #"ZITEM row 12, column ZPHOTO: the photo's external file "" is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        (
            [0],
            #"ZITEM row 12, column ZPHOTO: the photo's external file "" is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        (
            Array("photo".utf8) + [0] + Array("/../x".utf8),
            #"ZITEM row 12, column ZPHOTO: the photo's external file "photo\0/../x" is not a plain file name in .Hostile_SUPPORT/_EXTERNAL_DATA"#
        ),
        ([0x70, 0xff], "ZITEM row 12, column ZPHOTO: the photo's external file name is not valid UTF-8"),
    ]

    @Test(arguments: badExternalNames)
    func anExternalPhotoNameThatIsNotAPlainNameIsRefused(_ bad: (name: [UInt8], reason: String)) throws {
        _ = try externalDataFolder()
        let path = try storeWithExternalPhoto(bad.name)
        expectCoreDataRefused(path, bad.reason)
        try expectImportRefused(path, bad.reason)
    }

    @Test func anExternalPhotoThatIsASymbolicLinkIsRefused() throws {
        let folder = try externalDataFolder()
        let secret = try file("secret.txt", Data("the user's secret".utf8))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("photo").path, withDestinationPath: secret)
        let path = try storeWithExternalPhoto(Array("photo".utf8) + [0])
        let reason =
            #"ZITEM row 12, column ZPHOTO: the photo's external file "photo" is reached through a symbolic link (\#(folder.path)/photo), which is refused"#
        expectCoreDataRefused(path, reason)
        try expectImportRefused(path, reason)
    }

    @Test func anExternalDataFolderThatIsASymbolicLinkIsRefused() throws {
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("the user's secret".utf8).write(to: elsewhere.appendingPathComponent("photo"))
        let support = directory.url.appendingPathComponent(".Hostile_SUPPORT")
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: support.appendingPathComponent("_EXTERNAL_DATA"), withDestinationURL: elsewhere)
        let path = try storeWithExternalPhoto(Array("photo".utf8))
        let reason =
            #"ZITEM row 12, column ZPHOTO: the photo's external file "photo" is reached through a symbolic link (\#(support.path)/_EXTERNAL_DATA), which is refused"#
        expectCoreDataRefused(path, reason)
    }

    @Test func anExternalPhotoThatIsAFolderIsRefused() throws {
        let folder = try externalDataFolder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("photo"), withIntermediateDirectories: true)
        let path = try storeWithExternalPhoto(Array("photo".utf8))
        expectCoreDataRefused(
            path, #"ZITEM row 12, column ZPHOTO: the photo's external file "photo" is not a regular file"#)
    }

    @Test func aPlainExternalPhotoIsRead() throws {
        let folder = try externalDataFolder()
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        try bytes.write(to: folder.appendingPathComponent("6A0E6B43-6B4B-4E4B-9E0B-3C4C2B1B7D11"))
        let path = try storeWithExternalPhoto(Array("6A0E6B43-6B4B-4E4B-9E0B-3C4C2B1B7D11".utf8) + [0])
        #expect(try CoreDataStoreReader.read(path: path).items.first?.photo == bytes)
    }

    // MARK: - Text files: UTF-8

    /// A file's name, its bytes (valid text around invalid bytes), and the offset of the first invalid one.
    static let notUTF8: [(name: String, bytes: [UInt8], offset: Int)] = [
        ("bad.csv", Array("kind,name\nitem,Fl".utf8) + [0xFF] + Array("our\n".utf8), 17),
        (
            "bad.json",
            Array(#"{"format":"grocery-dude","version":1,"items":[{"name":""#.utf8) + [0xC3, 0x28]
                + Array(#""}]}"#.utf8), 55
        ),
        ("bad.xml", Array(#"<items><item name=""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""/></items>"#.utf8), 19),
        ("overlong.csv", Array("name\n".utf8) + [0xC0, 0xAF] + Array("\n".utf8), 5),
    ]

    @Test(arguments: notUTF8)
    func invalidUTF8IsAnErrorSayingWhere(_ bad: (name: String, bytes: [UInt8], offset: Int)) throws {
        try expectImportRefused(
            try file(bad.name, Data(bad.bytes)), "the file is not valid UTF-8 (byte offset \(bad.offset))")
    }

    /// A name of a million characters is refused in a line a terminal shows, in every format:
    /// the message quotes its first 40 characters.
    @Test(arguments: ["csv", "json", "xml"])
    func aHugeNameIsRefusedInAShortLine(_ format: String) throws {
        let name = "Lemon" + String(repeating: "a", count: 1_000_000)
        let text =
            switch format {
            case "csv": "kind,name\nitem,\(name)\n"
            case "json": #"{"format":"grocery-dude","version":1,"items":[{"name":"\#(name)"}]}"#
            default: #"<items><item name="\#(name)"/></items>"#
            }
        let path = try file("huge.\(format)", Data(text.utf8))
        let store = try GroceryStore.temporary(in: directory, name: "huge-\(format)")
        do {
            try store.importFile(path: path)
            Issue.record("imported")
        } catch {
            let message = "\(error)"
            #expect(
                message.count < 400 && message.contains("Lemonaaaa") && message.contains("…"), "\(message.prefix(300))")
        }
        #expect(try store.items().isEmpty)
    }

    // MARK: - CSV: numbers and dates

    @Test(arguments: [
        "0x10", "1e5", "1E5", "inf", "nan", "Infinity", " 1", "1 ", "1.", ".5", "1.2.3", "--1", "+-1", "1,5",
        "+", "-", "٣", "1_000", "0b1", "1" + String(repeating: "0", count: 400),
    ])
    func aCSVQuantityOutsideTheRuleIsRefused(_ text: String) throws {
        let path = try file("quantity.csv", Data("kind,name,quantity\nitem,Milk,\"\(text)\"\n".utf8))
        try expectImportRefused(path, "line 2: quantity \(text.debugDescription) is not a plain decimal number")
    }

    @Test func theQuantityRuleAcceptsPlainDecimals() {
        #expect(PlainDecimal.parse("2") == 2)
        #expect(PlainDecimal.parse("+2") == 2)
        #expect(PlainDecimal.parse("-2.5") == -2.5)
        #expect(PlainDecimal.parse("007.250") == 7.25)
        #expect(PlainDecimal.parse("0.00001") == 0.00001)
    }

    @Test(arguments: [
        0.00001, 1.2345e-7, 0.1, 1.25, 99_999.999_99, 1.000_000_000_000_000_2, Double.leastNonzeroMagnitude,
        123_456_789_012_345_680_000.0,
        -0.5, 3,
    ])
    func quantitiesAreWrittenUnderTheRuleAndReadBackExactly(_ value: Double) {
        let text = PlainDecimal.string(value)
        #expect(!text.contains("e") && PlainDecimal.parse(text) == value, "\(value) written as \(text)")
    }

    @Test func aSmallQuantityRoundTripsThroughCSV() throws {
        var archive = GroceryArchive()
        var item = ItemRecord(name: "Saffron")
        item.quantity = 0.00001
        archive.items = [item]
        let data = CSVArchiveCoder.encode(archive)
        #expect(String(decoding: data, as: UTF8.self).contains(",0.00001,"))
        #expect(try CSVArchiveCoder.decode(data).items.first?.quantity == 0.00001)
    }

    @Test(arguments: ["0001-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z"])
    func aCSVDateOutsideTheRangeIsRefused(_ text: String) throws {
        let path = try file("date.csv", Data("kind,name,modified\nitem,Milk,\(text)\n".utf8))
        try expectImportRefused(path, "line 2: \(text.debugDescription) is not a date from 1970 to 9999")
    }

    @Test func theEdgesOfTheDateRangeAreRead() throws {
        let data = Data("kind,name,modified\nitem,Milk,1970-01-01T00:00:00Z\nunit,kg,9999-12-31T23:59:59.999Z\n".utf8)
        let archive = try CSVArchiveCoder.decode(data)
        #expect(archive.items.first?.modified == Date(timeIntervalSince1970: 0))
        #expect(archive.units.first?.modified == Date(timeIntervalSince1970: 253_402_300_799.999))
    }

    @Test func aCSVColumnNamedTwiceIsRefused() throws {
        let path = try file("twice.csv", Data("kind,name,name\nitem,Milk,Eggs\n".utf8))
        try expectImportRefused(path, #"line 1: the column "name" appears twice"#)
    }

    // MARK: - JSON: depth, numbers, dates

    @Test func deeplyNestedJSONIsRefused() throws {
        let path = try file(
            "deep.json", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8))
        try expectImportRefused(
            path, "arrays and objects nest more than 32 levels deep (byte offset 32): not a Grocery Dude file")
    }

    @Test func bracketsInsideJSONStringsAreNotNesting() throws {
        let name = String(repeating: "[{", count: 40) + #"\"]"#
        let data = Data(#"{"format":"grocery-dude","version":1,"items":[{"name":"\#(name)"}]}"#.utf8)
        #expect(try JSONArchiveCoder.decode(data).items.first?.name == String(repeating: "[{", count: 40) + "\"]")
    }

    /// The body of a JSON file (after its format and version) and the error it gives.
    static let badJSON: [(body: String, reason: String)] = [
        (
            #""items":[{"name":"Milk","modified":"0001-01-01T00:00:00Z"}]"#,
            #"items[0].modified: "0001-01-01T00:00:00Z" is not a date from 1970 to 9999"#
        ),
        (
            #""units":[{"name":"kg","modified":"1969-07-20T20:17:00Z"}]"#,
            #"units[0].modified: "1969-07-20T20:17:00Z" is not a date from 1970 to 9999"#
        ),
        (#""items":[{"name":"Milk","quantity":1e400}]"#, "not valid JSON"),
        (#""items":[{"name":"Milk","quantity":NaN}]"#, "not valid JSON"),
        (#""items":[{"name":"Milk","listed":1e30}]"#, "items[0].listed should be Bool"),
    ]

    @Test(arguments: badJSON)
    func badJSONValuesAreRefused(_ bad: (body: String, reason: String)) throws {
        let json = #"{"format":"grocery-dude","version":1,\#(bad.body)}"#
        try expectImportRefused(try file("values.json", Data(json.utf8)), bad.reason)
    }

    // MARK: - XML: shape, depth, entities

    /// XML files of another shape than the book's, and the error each gives.
    static let otherShapes: [(name: String, text: String, reason: String)] = [
        (
            "deep.xml", String(repeating: "<items>", count: 100_000) + String(repeating: "</items>", count: 100_000),
            "line 1: unexpected element <items>: not the book's XML format"
        ),
        (
            "nested.xml", #"<items><item name="a"><item name="b"/></item></items>"#,
            "line 1: unexpected element <item>: not the book's XML format"
        ),
        ("root.xml", #"<item name="a"/>"#, "line 1: unexpected element <item>: not the book's XML format"),
    ]

    @Test(arguments: otherShapes)
    func xmlOfAnotherShapeIsRefused(_ bad: (name: String, text: String, reason: String)) throws {
        try expectImportRefused(try file(bad.name, Data(bad.text.utf8)), bad.reason)
    }

    /// Refused at its declaration: no entity is ever defined, so none expands.
    @Test func anExpandingEntityIsRefused() throws {
        var entities = #"<!ENTITY a0 "lol">"#
        for level in 1...9 {
            entities += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let text = #"<?xml version="1.0"?><!DOCTYPE items [\#(entities)]><items><item name="&a9;"/></items>"#
        try expectImportRefused(
            try file("laughs.xml", Data(text.utf8)),
            "line 1: a document type declaration (<!DOCTYPE …>) is not read: a file of this format has none")
    }

    // MARK: - Through the real binary

    @Test func theCommandLineRefusesAHostileStoreWithOneLineAndLeavesNoTempCopy() throws {
        let path = try coreDataStore("UPDATE ZITEM SET ZQUANTITY = 'abc'")
        let temporary = TemporaryDirectory("hostile-cli-tmp")
        let runner = CommandRunner(
            dataDirectory: directory.url.appendingPathComponent("cli").path, environment: ["TMPDIR": temporary.path])
        let result = try runner.run(["--no-default-data", "import", path])
        #expect(result.status != 0 && result.status != 132 && result.status != 134, "exit status \(result.status)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains(#"ZITEM row 12, column ZQUANTITY: "abc" is not a number"#),
            "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("grocery-dude-import-")
        }
        #expect(left.isEmpty, "temp copies left behind: \(left)")
        #expect(
            try runner.run(["item", "ls", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }
}
