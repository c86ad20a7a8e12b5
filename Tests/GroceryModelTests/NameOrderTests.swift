import Foundation
import GRDB
import TestSupport
import Testing
import TextAndFiles
import Ubiquity

@testable import GroceryModel

/// Lists read in alphabetical order as a person reads it: accents and case do not send a name
/// after "Z".
@Suite("The order of names")
struct NameOrderTests {
    let directory = TemporaryDirectory("name-order")

    /// Units, locations, aisles and lists in natural order ("Aisle 2" before "Aisle 10"), as
    /// Finder and GNOME Files; items keep their order by name.
    @Test func numbersInCatalogNamesSortAsNumbers() throws {
        let store = try GroceryStore.temporary(in: directory)
        for (name, aisle) in [
            ("Rice", "Aisle 10"), ("Soap", "Aisle 2"), ("Tea", "aisle 1"), ("Oil", "Aisle 02"), ("Salt", "Aisle"),
        ] {
            var draft = ItemDraft(name: name)
            draft.shopLocation = aisle
            try store.addItem(draft)
        }
        let expected = ["Aisle", "aisle 1", "Aisle 2", "Aisle 02", "Aisle 10"]
        #expect(try store.entries(.shop).map(\.name) == expected)
        #expect(try store.itemIndex(ItemListQuery(grouping: .shopAisle)).sections.map(\.title) == expected)
        for (a, b) in [("Item 9", "Item 10"), ("x2y", "x10y"), ("2", "a"), ("Été 3", "ete 20"), ("Week 1", "Week 1 b")]
        {
            #expect(
                NaturalOrder.areInIncreasingOrder(a, b) && !NaturalOrder.areInIncreasingOrder(b, a), "\(a) before \(b)")
        }
    }

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
        #expect(
            index.ids.compactMap { rows[$0]?.name } == [
                "banana", "Dates", "\u{C9}clair", "Eggs", "\u{C9}picerie fine", "Zucchini", "apple",
            ])
        #expect(try store.entries(.home).map(\.name) == ["Attic", "\u{C9}tag\u{E8}re", "Zinc shelf"])
    }

    /// An item's location is found by its link's exact stored text: a link to a location not
    /// here (not arrived yet), one in capitals and none at all are all "Unknown location", in
    /// name order; a location without items has no section.
    @Test func linksToNoLocationHereAreUnknownInNameOrder() throws {
        let store = try GroceryStore.temporary(in: directory)
        for (name, home) in [
            ("Apple", "Pantry"), ("Bread", "Attic"), ("Cheese", nil), ("Dates", "Fridge"), ("Eggs", "Fridge"),
        ] {
            var draft = ItemDraft(name: name)
            draft.homeLocation = home
            try store.addItem(draft)
        }
        let fridge = try #require(try store.items().first { $0.name == "Dates" }?.item.locationAtHome)
        try store.objects.write { db in
            try db.execute(
                sql: "UPDATE item SET locationAtHome = ? WHERE name = 'Bread'",
                arguments: [GlobalID(UUID()).description])
            try db.execute(
                sql: "UPDATE item SET locationAtHome = upper(?) WHERE name = 'Eggs'", arguments: [fridge.description])
        }
        for order in [ItemListQuery.Order.byLocation, .byName] {
            let index = try store.itemIndex(ItemListQuery(grouping: .homeLocation, order: order))
            let rows = try store.itemRows(index.ids)
            let titles = index.sections.map(\.title)
            let names = index.sections.map { section in
                index.ids[section.start..<section.start + section.count].compactMap { rows[$0]?.name }
            }
            if order == .byName {
                #expect(
                    titles == [ItemListIndex.byNameTitle] && names == [["Apple", "Bread", "Cheese", "Dates", "Eggs"]])
            } else {
                #expect(titles == ["Fridge", "Pantry", ItemListIndex.unknownLocation])
                #expect(names == [["Dates"], ["Apple"], ["Bread", "Cheese", "Eggs"]])
            }
        }
    }

    @Test func asciiNamesKeepTheOrderTheStoreGivesThem() throws {
        let rows = ["apple", "Banana", "cherry"]
        #expect(NameOrder.sorted(rows) { $0 } == rows)
        #expect(
            NameOrder.sorted(["b", "\u{E1}", "a"]) { $0 } == ["\u{E1}", "a", "b"], "equal keys keep the store's order")
    }
}
