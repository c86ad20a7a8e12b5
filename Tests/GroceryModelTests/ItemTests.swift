import Foundation
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

@Suite("Items and the shopping list")
struct ItemTests {
    let directory = TemporaryDirectory("items")
    let clock = TestClock()

    func milk(_ store: GroceryStore) throws -> ItemRow {
        var draft = ItemDraft(name: "  Milk ")
        draft.quantity = 2
        draft.unit = "L"
        draft.homeLocation = "Fridge"
        draft.shopLocation = "Dairy"
        return try store.addItem(draft)
    }

    /// A new store holding Milk (``milk(_:)``), Cake with a 4-byte photo and the unit "pk", and
    /// `others`, imported with Cake.
    func milkCakeAnd(_ others: [ItemRecord]) throws -> GroceryStore {
        let store = try GroceryStore.temporary(in: directory)
        _ = try milk(store)
        var archive = GroceryArchive()
        var cake = ItemRecord(name: "Cake")
        cake.photo = Data([1, 2, 3, 4])
        cake.unit = "pk"
        archive.items = [cake] + others
        try store.importArchive(archive, source: "test")
        return store
    }

    @Test func addingAnItemCreatesItsLinksInOneTransaction() throws {
        let store = try GroceryStore.temporary(in: directory, clock: clock)
        let row = try milk(store)
        #expect(row.name == "Milk")
        #expect(row.summary == "2 L Milk")
        #expect(row.unitName == "L" && row.homeLocationName == "Fridge" && row.shopLocationName == "Dairy")
        #expect(row.item.listed && !row.item.collected)
        #expect(row.item.modified == clock.now())

        let records = try store.objects.outbox()
        #expect(records.count == 1)
        #expect(Set(records[0].inserted.map(\.object.entity)) == ["Item", "Unit", "LocationAtHome", "LocationAtShop"])
    }

    @Test func theBookDefaultsApply() throws {
        let store = try GroceryStore.temporary(in: directory)
        let row = try store.addItem(ItemDraft(name: "Bread"))
        #expect(row.item.quantity == 1 && row.item.listed && !row.item.collected)
        #expect(row.summary == "Bread")
        #expect(row.unitName == nil && row.homeLocationName == nil)
    }

    @Test func existingLinksAreReusedIgnoringCase() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try milk(store)
        var draft = ItemDraft(name: "Cream")
        draft.homeLocation = "fridge"
        let cream = try store.addItem(draft)
        #expect(cream.homeLocationName == "Fridge")
        #expect(try store.entries(.home).count == 1)
    }

    @Test func editingChangesOnlyWhatWasAsked() throws {
        let store = try GroceryStore.temporary(in: directory, clock: clock)
        let original = try milk(store)
        clock.advance(by: 10)
        var changes = ItemChanges()
        changes.quantity = 3
        changes.unit = ""
        changes.note = "lactose free"
        let edited = try store.editItem("MILK", changes)
        #expect(edited.item.quantity == 3)
        #expect(edited.unitName == nil)
        #expect(edited.homeLocationName == "Fridge")
        #expect(edited.item.note == "lactose free")
        #expect(edited.item.modified == clock.now())
        #expect(edited.id == original.id)
        let record = try #require(try store.objects.outbox().last)
        #expect(record.updated.count == 1)
        #expect(Set(record.updated[0].values.keys) == ["quantity", "unit", "note", "modified"])
    }

    @Test func listingAnItemClearsCollectedAndTheClearsWork() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try milk(store)
        _ = try store.addItem(ItemDraft(name: "Eggs"))
        var unlisted = ItemDraft(name: "Salt")
        unlisted.listed = false
        _ = try store.addItem(unlisted)

        try store.setCollected("milk", true)
        #expect(try store.clearCollected() == 1)
        #expect(try store.items(listedOnly: true).map(\.name) == ["Eggs"])
        try store.setListed("milk", true)
        try store.setCollected("milk", true)
        try store.setListed("milk", true)
        #expect(try store.resolveItem("milk").item.collected == false)

        #expect(try store.clearListed() == 2)
        #expect(try store.items(listedOnly: true).isEmpty)
        #expect(try store.clearListed() == 0)
        #expect(try store.clearCollected() == 0)
    }

    @Test func removingAnItemDeletesItsPhotoButNotItsLinks() throws {
        let store = try GroceryStore.temporary(in: directory)
        var archive = GroceryArchive()
        var record = ItemRecord(name: "Cake")
        record.photo = Data([1, 2, 3, 4])
        record.unit = "pk"
        archive.items = [record]
        try store.importArchive(archive, source: "test")
        #expect(try store.resolveItem("cake").photoSize == 4)

        let removed = try store.removeItem("Cake")
        #expect(removed.name == "Cake")
        let last = try #require(try store.objects.outbox().last)
        #expect(Set(last.deleted.map(\.entity)) == ["Item", "ItemPhoto"])
        #expect(try store.entries(.unit).map(\.name) == ["pk"])
    }

    /// The list of every item reads the names its items point at once (``LinkedNames``): each
    /// row is the row read for that item alone, whose query joins the tables; a link to nothing
    /// has no name.
    @Test func theListNamesWhatEachItemPointsAtAsOneItemsRowDoes() throws {
        let store = try milkCakeAnd([ItemRecord(name: "Bread")])
        var eggs = ItemDraft(name: "Eggs")
        eggs.unit = "box"
        eggs.listed = false
        let dangling = try store.addItem(eggs)
        try store.objects.write { db in
            try db.execute(
                sql: "UPDATE item SET unit = ? WHERE id = ?",
                arguments: [GlobalID(UUID()).description, dangling.id.description])
            // A row whose ID is not one (a store edited by hand): no item can point at it.
            try db.execute(sql: "INSERT INTO unit (id, name, modified) VALUES ('not-an-id', 'crate', 0)")
        }

        let all = try store.items()
        #expect(all.map(\.name) == ["Bread", "Cake", "Eggs", "Milk"])
        #expect(all == Array(try store.itemRows(all.map(\.id)).values).sorted { $0.name < $1.name })
        #expect(all.first { $0.name == "Cake" }?.photoSize == 4 && all.first { $0.name == "Cake" }?.unitName == "pk")
        #expect(
            all.first { $0.name == "Milk" }.map { [$0.unitName, $0.homeLocationName, $0.shopLocationName] } == [
                "L", "Fridge", "Dairy",
            ])
        #expect(all.first { $0.name == "Eggs" }?.unitName == nil, "its unit is gone")
        #expect(try store.items(listedOnly: true).map(\.name) == ["Bread", "Cake", "Milk"])

        // Links are found from their stored bytes: one written in capitals is the same ID; one
        // that is no ID, or a number, links nowhere.
        let pack = try #require(all.first { $0.name == "Cake" }?.item.unit)
        try store.objects.write { db in
            try db.execute(sql: "UPDATE item SET unit = upper(?) WHERE name = 'Bread'", arguments: [pack.description])
            try db.execute(sql: "UPDATE item SET unit = 'not-an-id', locationAtShop = 7 WHERE name = 'Cake'")
        }
        let changed = try store.items()
        #expect(
            changed.first { $0.name == "Bread" }.map { [$0.item.unit?.description, $0.unitName] } == [
                pack.description, "pk",
            ])
        #expect(
            changed.first { $0.name == "Cake" }.map { [$0.item.unit?.description, $0.unitName, $0.shopLocationName] }
                == [nil, nil, nil])
        #expect(changed.first { $0.name == "Milk" } == all.first { $0.name == "Milk" })
    }

    /// What `item ls` prints, read into flat arrays (``ItemListing``), is every item's row
    /// (``GroceryStore/items(listedOnly:)``) in the same order, column for column: names out of
    /// ASCII order, notes, a photo, links in capitals or to nothing, and text a hand-edited store
    /// holds (invalid UTF-8, a NUL) read as GRDB reads a string.
    @Test func theListingHoldsWhatTheRowsHold() throws {
        let store = try milkCakeAnd(["Bread", "Éclair", "eclair", "Zucchini 🥒"].map { ItemRecord(name: $0) })
        var noted = ItemDraft(name: "Say \"hi\"")
        noted.note = "a note é 🍞"
        noted.listed = false
        _ = try store.addItem(noted)
        let pack = try #require(try store.resolveItem("Cake").item.unit)
        try store.objects.write { db in
            try db.execute(sql: "UPDATE item SET unit = upper(?) WHERE name = 'Bread'", arguments: [pack.description])
            try db.execute(sql: "UPDATE item SET id = upper(id), locationAtShop = 7 WHERE name = 'eclair'")
            try db.execute(sql: "UPDATE item SET name = CAST(X'C3412D78' AS TEXT), note = '' WHERE name = 'Zucchini 🥒'")
            try db.execute(
                sql:
                    "UPDATE item SET name = CAST(X'4E554C00616674' AS TEXT), note = CAST(X'6E6F74650078' AS TEXT) WHERE name = 'Milk'"
            )
        }
        for listedOnly in [false, true] {
            let rows = try store.items(listedOnly: listedOnly)
            let listing = try store.listing(listedOnly: listedOnly)
            #expect(listing.count == rows.count)
            for (index, row) in rows.enumerated() where index < listing.count {
                #expect(Array(listing.id(index)) == Array(row.id.description.utf8))
                #expect(Array(listing.name(index)) == Array(row.name.utf8))
                #expect(listing.note(index).map(Array.init) == row.item.note.map { Array($0.utf8) })
                #expect(listing.quantity(index) == row.item.quantity && listing.modified(index) == row.item.modified)
                #expect(listing.listed(index) == row.item.listed && listing.collected(index) == row.item.collected)
                #expect(
                    [listing.unitName(index), listing.homeLocationName(index), listing.shopLocationName(index)]
                        == [row.unitName, row.homeLocationName, row.shopLocationName])
                #expect(listing.photoSize(index) == row.photoSize)
            }
        }
        #expect(try store.items().map(\.name).contains("NUL"), "read up to the NUL")
        #expect(try store.items().map(\.name).contains("\u{FFFD}A-x"), "invalid UTF-8 repaired")

        // A row whose ID is not one (a store edited by hand) is left out, not a crash.
        try store.objects.write { db in try db.execute(sql: "UPDATE item SET id = 'not-an-id' WHERE name = 'Bread'") }
        let listing = try store.listing()
        #expect(listing.count == 6)
        #expect(!(0..<listing.count).contains { String(decoding: listing.name($0), as: UTF8.self) == "Bread" })
    }

    /// The listing reads columns by index: each ``ItemColumn`` is the column the SELECT made
    /// from it has at that index, with or without the note (model versions 1 and 2).
    @Test func eachItemColumnIsWhereTheSelectionPutsIt() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.objects.read { db in
            for version in [1, 2] {
                let statement = try db.makeStatement(sql: "SELECT \(Item.selection(modelVersion: version)) FROM item")
                let columns = ItemColumn.selected(modelVersion: version)
                #expect(statement.columnNames.count == columns.count)
                for column in columns where column.index() < statement.columnNames.count {
                    #expect(statement.columnNames[column.index()] == column.sqlName, "\(column)")
                }
            }
        }
    }

    @Test func referencesAreNamesOrIDPrefixes() throws {
        let store = try GroceryStore.temporary(in: directory)
        let row = try milk(store)
        #expect(try store.resolveItem(" mILk  ").id == row.id)
        #expect(try store.resolveItem(String(row.id.description.prefix(8))).id == row.id)
        #expect(throws: GroceryError.notFound(kind: "item", reference: "Bread")) { try store.resolveItem("Bread") }
        // Too short to be taken as an ID.
        #expect(throws: GroceryError.notFound(kind: "item", reference: "000")) { try store.resolveItem("000") }
        // The whole ID finds it; anything longer is no ID (nor a pattern SQLite refuses).
        #expect(try store.resolveItem(row.id.description).id == row.id)
        let long = String(repeating: "a", count: 100_000)
        #expect(throws: GroceryError.notFound(kind: "item", reference: long)) { try store.resolveItem(long) }
    }

    @Test func anAmbiguousReferenceListsTheCandidates() throws {
        let store = try GroceryStore.temporary(in: directory, ids: SequentialIDs(prefix: "abcdef00"))
        _ = try store.addItem(ItemDraft(name: "Milk"))
        _ = try store.addItem(ItemDraft(name: "Eggs"))
        do {
            _ = try store.resolveItem("abcdef00")
            Issue.record("expected an ambiguity")
        } catch let GroceryError.ambiguous(kind, _, candidates) {
            #expect(kind == "item")
            #expect(candidates.count == 2)
            #expect(candidates.contains { $0.hasPrefix("\"Milk\"") })
        }
    }

    @Test func aNameInUseIsRefused() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try milk(store)
        _ = try store.addItem(ItemDraft(name: "Eggs"))
        #expect(throws: GroceryError.alreadyExists(kind: "item", name: "Milk")) {
            try store.addItem(ItemDraft(name: "milk  "))
        }
        var rename = ItemChanges()
        rename.name = "MILK"
        #expect(throws: GroceryError.alreadyExists(kind: "item", name: "Milk")) { try store.editItem("Eggs", rename) }
        // Changing only the case of its own name is fine.
        rename.name = "MILK"
        #expect(try store.editItem("milk", rename).name == "MILK")
    }
}
