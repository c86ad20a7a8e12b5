import Foundation
import TestSupport
import Testing

@testable import GroceryModel

@Suite("Units, home locations and shop aisles")
struct CatalogTests {
    let directory = TemporaryDirectory("catalog")

    @Test(arguments: CatalogKind.allCases)
    func addRenameRemove(_ kind: CatalogKind) throws {
        let store = try GroceryStore.temporary(in: directory)
        let entry = try store.addEntry(kind, name: " Top Shelf ")
        #expect(entry.name == "Top Shelf" && entry.itemCount == 0)
        #expect(throws: GroceryError.alreadyExists(kind: kind.noun, name: "Top Shelf")) {
            try store.addEntry(kind, name: "top  shelf")
        }

        var draft = ItemDraft(name: "Jam")
        switch kind {
        case .unit: draft.unit = "top shelf"
        case .home: draft.homeLocation = "top shelf"
        case .shop: draft.shopLocation = "top shelf"
        }
        _ = try store.addItem(draft)
        #expect(try store.entries(kind).first?.itemCount == 1)

        let renamed = try store.renameEntry(kind, "TOP SHELF", to: "Bottom Shelf")
        #expect(renamed.id == entry.id && renamed.name == "Bottom Shelf")
        let jam = try store.resolveItem("jam")
        let linkedName = [jam.unitName, jam.homeLocationName, jam.shopLocationName].compactMap { $0 }
        #expect(linkedName == ["Bottom Shelf"])

        let removed = try store.removeEntry(kind, "bottom shelf")
        #expect(removed.itemCount == 1)
        #expect(try store.entries(kind).isEmpty)
        let after = try store.resolveItem("jam")
        #expect(after.unitName == nil && after.homeLocationName == nil && after.shopLocationName == nil)
        let record = try #require(try store.objects.outbox().last)
        #expect(record.deleted.map(\.entity) == [kind.entity])
        #expect(record.updated.map(\.object.id) == [jam.id.globalID])
    }

    @Test func renamingOntoAnotherNameIsRefused() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.addEntry(.unit, name: "kg")
        try store.addEntry(.unit, name: "g")
        #expect(throws: GroceryError.alreadyExists(kind: "unit", name: "kg")) {
            try store.renameEntry(.unit, "g", to: "KG")
        }
        #expect(try store.renameEntry(.unit, "kg", to: "Kg").name == "Kg")
    }

    @Test func anExactSpellingWinsOverOthersThatNormalizeAlike() throws {
        let store = try GroceryStore.temporary(in: directory)
        var archive = GroceryArchive()
        archive.units = [CatalogRecord(name: "kg"), CatalogRecord(name: "Kg")]
        try store.importArchive(archive, source: "test")
        #expect(try store.removeEntry(.unit, "Kg").name == "Kg")
        #expect(try store.entries(.unit).map(\.name) == ["kg"])
    }
}
