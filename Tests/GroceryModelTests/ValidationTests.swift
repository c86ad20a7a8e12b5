import Foundation
import TestSupport
import Testing

@testable import GroceryModel

@Suite("Bad input changes nothing")
struct ValidationTests {
    let directory = TemporaryDirectory("validation")

    static let badNames = ["", "   ", "Milk\nEggs", "Tab\there", "Bell\u{7}", String(repeating: "x", count: 201)]
    static let badQuantities: [Double] = [-1, .nan, .infinity, -.infinity, 100_001, 1e300]

    @Test(arguments: badNames)
    func badItemNamesAreRefused(_ name: String) throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try store.addItem(ItemDraft(name: "Milk"))
        let before = try store.transactionCount()
        #expect(throws: GroceryError.self) { try store.addItem(ItemDraft(name: name)) }
        var changes = ItemChanges()
        changes.name = name
        #expect(throws: GroceryError.self) { try store.editItem("Milk", changes) }
        for kind in CatalogKind.allCases {
            #expect(throws: GroceryError.self) { try store.addEntry(kind, name: name) }
        }
        var linked = ItemDraft(name: "Eggs")
        linked.unit = String(repeating: "u", count: 300)
        #expect(throws: GroceryError.self) { try store.addItem(linked) }
        #expect(try store.transactionCount() == before)
        #expect(try store.items().map(\.name) == ["Milk"])
    }

    @Test(arguments: badQuantities)
    func badQuantitiesAreRefused(_ quantity: Double) throws {
        let store = try GroceryStore.temporary(in: directory)
        var draft = ItemDraft(name: "Milk")
        draft.quantity = quantity
        #expect(throws: GroceryError.self) { try store.addItem(draft) }
        #expect(try store.transactionCount() == 0)
    }

    @Test(arguments: ["abc", "", "nan", "1e999", "-2", "0x10p9"])
    func badQuantityTextIsRefused(_ text: String) {
        #expect(throws: GroceryError.self) { try Validation.quantity(text: text) }
    }

    @Test func goodQuantityTextIsRead() throws {
        #expect(try Validation.quantity(text: " 1.5 ") == 1.5)
        #expect(try Validation.quantity(text: "0,5") == 0.5)
        #expect(try Validation.quantity(text: "0") == 0)
    }

    @Test func namesKeepInnerSpacesAndUnicode() throws {
        #expect(try Validation.name("  Crème  brûlée 🍮 ", field: "x") == "Crème  brûlée 🍮")
        #expect(try Validation.importedName(" Tin", field: "x") == " Tin")
        #expect(Validation.normalized("  Kg ") == Validation.normalized("kg"))
    }

    @Test func aNameInUseIsSaidWithTheRightArticle() {
        let said = ["item", "unit", "home location", "shop aisle", "aisle", "user"].map {
            GroceryError.alreadyExists(kind: $0, name: "X").description
        }
        #expect(
            said == [
                "an item named \"X\" exists already", "a unit named \"X\" exists already",
                "a home location named \"X\" exists already", "a shop aisle named \"X\" exists already",
                "an aisle named \"X\" exists already", "a user named \"X\" exists already",
            ])
    }
}
