import Foundation
import GRDB
import TestSupport
import Testing

@testable import GroceryModel

/// The model's typed IDs print, parse, encode and store as the engine's IDs did: the text of
/// `--json` output, tables and typed references is the same.
@Suite("Typed IDs")
struct EntityIDTests {
    let directory = TemporaryDirectory("entity-ids")

    @Test func anIDRoundTripsThroughItsText() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: false)
        var draft = ItemDraft(name: "Milk")
        draft.unit = "L"
        let milk = try store.addItem(draft)
        let text = milk.id.description
        #expect(text.count == 36 && text == text.lowercased())
        #expect(ItemID(text) == milk.id)
        #expect(ItemID(text.uppercased()) == milk.id, "any case is read, lowercase is printed")
        #expect(ItemID(text.uppercased())?.description == text)
        #expect(ItemID("milk") == nil && ItemID(String(text.dropLast())) == nil)
        let unit = try #require(milk.item.unit)
        #expect(UnitID(unit.description) == unit)
    }

    @Test func theTextIsWhatTheStoreHolds() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: false)
        var draft = ItemDraft(name: "Flour")
        draft.unit = "kg"
        draft.homeLocation = "Pantry"
        draft.shopLocation = "Aisle 3"
        let flour = try store.addItem(draft)
        let row = try store.objects.read { db in
            try Row.fetchOne(db, sql: "SELECT id, unit, locationAtHome, locationAtShop FROM item")!
        }
        #expect(
            [
                flour.id.description, flour.item.unit?.description, flour.item.locationAtHome?.description,
                flour.item.locationAtShop?.description,
            ] == [row[0], row[1], row[2], row[3]] as [String?])
        #expect(try store.entries(.unit).map(\.id) == [.unit(try #require(flour.item.unit))])
        #expect(try store.entries(.home).map(\.id.description) == [row[2] as String])
        #expect(try store.entries(.shop).first?.id.kind == .shop)
    }

    @Test func anIDEncodesAsItsText() throws {
        let id = try #require(ItemID("0A1B2C3D-0000-4000-8000-00000000000F"))
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"0a1b2c3d-0000-4000-8000-00000000000f\"]")
        #expect(try JSONDecoder().decode([ItemID].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ItemID].self, from: Data("[\"milk\"]".utf8)) }
    }

    @Test func anItemBroughtBackTwiceIsFoundUnderItsLatestID() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: false)
        let bread = try store.addItem(ItemDraft(name: "Bread"))
        var aliases = ItemAliases()
        let before = try store.snapshots(of: [bread.id])
        try store.removeItem("Bread")
        try store.restore(before, aliases: &aliases)
        let second = aliases.current(bread.id)
        #expect(try second != bread.id && store.item(id: second)?.name == "Bread")
        try store.removeItem("Bread")
        try store.restore(before, aliases: &aliases)
        let third = aliases.current(bread.id)
        #expect(try third != second && store.item(id: third)?.name == "Bread")
        #expect(aliases.current(second) == third)
        aliases.removeAll()
        #expect(aliases.current(bread.id) == bread.id)
    }

    @Test func anEntryIsRenamedAndRemovedByItsID() throws {
        let store = try GroceryStore.temporary(in: directory, defaultData: false)
        // A name that reads as an ID prefix is still a name; the ID names the entry it belongs to.
        let beef = try store.addEntry(.shop, name: "beef")
        let other = try store.addEntry(.shop, name: String(beef.id.description.prefix(8)))
        #expect(try store.renameEntry(other.id, to: "Meat").id == other.id)
        #expect(try store.entries(.shop).map(\.name) == ["beef", "Meat"])
        #expect(try store.removeEntry(beef.id).name == "beef")
        #expect(throws: GroceryError.notFound(kind: "shop aisle", reference: beef.id.description)) {
            try store.removeEntry(beef.id)
        }
    }
}
