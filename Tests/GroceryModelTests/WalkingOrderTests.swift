import Foundation
import GroceryModel
import TestSupport
import Testing
import Ubiquity

/// A shop's walking order (``WalkingOrder``) through the store: natural order until moved,
/// one position written a move, and a gap that runs out of numbers numbered again.
@Suite("A shop's walking order")
struct WalkingOrderTests {
    let directory = TemporaryDirectory("walking-order")

    @Test func aMoveWritesOnlyTheMovedAislesPositionAndAnExhaustedGapIsNumberedAgain() throws {
        let store = try GroceryStore.temporary(in: directory)
        let aldi = try store.addShop(name: "Aldi")
        for name in ["Aisle 10", "Aisle 2", "Aisle 1", "Bakery"] { try store.addAisle(name, in: aldi.id) }
        #expect(try store.aisles(in: aldi.id).map(\.name) == ["Aisle 1", "Aisle 2", "Aisle 10", "Bakery"])
        let moved = try store.moveAisle("Bakery", in: aldi.id, to: .after("Aisle 1"))
        #expect(moved.map(\.name) == ["Aisle 1", "Bakery", "Aisle 2", "Aisle 10"])
        #expect(moved.filter { $0.position != nil }.map(\.name) == ["Bakery"], "one position written")
        // Back and forth into the same gap until no number lies between: the order holds.
        for round in 0..<60 {
            let aisle = round.isMultiple(of: 2) ? "Aisle 10" : "Bakery"
            let order = try store.moveAisle(aisle, in: aldi.id, to: .after("Aisle 1"))
            #expect(order[1].name == aisle, "round \(round): \(order.map(\.name))")
        }
        let final = try store.aisles(in: aldi.id)
        #expect(final.allSatisfy { $0.position != nil }, "numbered again once the gap ran out")
        #expect(Set(final.map(\.name)) == ["Aisle 1", "Aisle 2", "Aisle 10", "Bakery"])
        // A new aisle lands in natural order among the unmoved, after none of the moved ones.
        let other = try store.addShop(name: "Lidl")
        try store.addAisle("Aisle 3", in: other.id)
        try store.moveAisle("Aisle 3", in: other.id, to: .last)
        try store.addAisle("Aisle 1", in: other.id)
        #expect(try store.aisles(in: other.id).map(\.name) == ["Aisle 1", "Aisle 3"])
        #expect(throws: GroceryError.self) { try store.moveAisle("Aisle 1", in: other.id, to: .before("Aisle 1")) }
        #expect(throws: GroceryError.self) { try store.removeShop("My shop") }
    }

    /// A peer's link that puts an item in one shop under another shop's aisle (a buggy or
    /// hostile writer) is nowhere: not that shop's aisle of the item, in no listing of it.
    @Test func aLinkToAnotherShopsAisleIsNoAisle() throws {
        let store = try GroceryStore.temporary(in: directory)
        let milk = try store.addItem(ItemDraft(name: "Milk"))
        let aldi = try store.addShop(name: "Aldi")
        let lidl = try store.addShop(name: "Lidl")
        let chilled = try store.addAisle("Chilled", in: aldi.id)
        try store.objects.save(author: "hostile") { context in
            _ = try context.insert(
                GrocerySchema.Entity.itemAisle,
                values: [
                    "item": .reference(milk.id.globalID), "shop": .reference(lidl.id.globalID),
                    "aisle": .reference(chilled.id.globalID),
                ])
        }
        #expect(try store.aisleName(of: milk.id, in: lidl.id) == nil)
        #expect(try store.otherShopsAisles().isEmpty)
        #expect(try store.walkingPlaces(in: lidl.id).isEmpty)
    }

    /// Names without digits too: by name, whatever order their IDs are in.
    @Test func unmovedAislesAreInOrderOfNames() throws {
        let store = try GroceryStore.temporary(in: directory)
        for name in ["Zeta", "alpha", "Mid", "Beta", "Éclair"] { try store.addAisle(name) }
        #expect(try store.aisles().map(\.name) == ["alpha", "Beta", "Éclair", "Mid", "Zeta"])
    }
}
