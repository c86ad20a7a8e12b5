import Foundation
import Testing
import TestSupport
@testable import GroceryModel

/// Lists read in alphabetical order as a person reads it: accents and case do not send a name
/// after "Z".
@Suite("The order of names")
struct NameOrderTests {
    let directory = TemporaryDirectory("name-order")

    @Test func accentedNamesSortWithTheirLetterInEveryList() throws {
        let store = try GroceryStore.temporary(in: directory)
        for name in ["Zucchini", "\u{C9}clair", "apple", "Eggs", "\u{C9}picerie fine", "banana", "Dates"] {
            var draft = ItemDraft(name: name)
            draft.homeLocation = name == "Zucchini" ? "\u{C9}tag\u{E8}re" : name == "apple" ? "Zinc shelf" : "Attic"
            try store.addItem(draft)
        }
        let expected = ["apple", "banana", "Dates", "\u{C9}clair", "Eggs", "\u{C9}picerie fine", "Zucchini"]
        #expect(try store.items().map(\.name) == expected)

        // Prepare: sections by home location in the same order, items in order within each.
        let index = try store.itemIndex(ItemListQuery(grouping: .homeLocation))
        #expect(index.sections.map(\.title) == ["Attic", "\u{C9}tag\u{E8}re", "Zinc shelf"])
        let rows = try store.itemRows(index.ids)
        #expect(index.ids.compactMap { rows[$0]?.name } == ["banana", "Dates", "\u{C9}clair", "Eggs", "\u{C9}picerie fine", "Zucchini", "apple"])
        #expect(try store.entries(.home).map(\.name) == ["Attic", "\u{C9}tag\u{E8}re", "Zinc shelf"])
    }

    @Test func asciiNamesKeepTheOrderTheStoreGivesThem() throws {
        let rows = ["apple", "Banana", "cherry"]
        #expect(NameOrder.sorted(rows) { $0 } == rows)
        #expect(NameOrder.sorted(["b", "\u{E1}", "a"]) { $0 } == ["\u{E1}", "a", "b"], "equal keys keep the store's order")
    }
}
