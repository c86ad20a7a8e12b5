import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

@Suite("Model versions of the grocery store")
struct MigrationTests {
    let directory = TemporaryDirectory("migration")

    @Test func aVersion1StoreOpensAsVersion2WithEverythingKept() throws {
        let old = try GroceryStore.temporary(in: directory, modelVersion: 1, defaultData: true)
        #expect(old.modelVersion == 1)
        var draft = ItemDraft(name: "Oat Milk")
        draft.unit = "L"
        draft.note = "refused at version 1"
        #expect(throws: GroceryError.notInModelVersion(property: "note", since: 2, store: 1)) { try old.addItem(draft) }
        draft.note = nil
        _ = try old.addItem(draft)
        let before = try old.exportArchive()
        #expect(before.items.allSatisfy { $0.note == nil })
        let columns = try old.objects.read { db in try db.columns(in: "item").map(\.name) }
        #expect(!columns.contains("note"))

        // Another process: IDs of its own (sequential ones from 1 again would repeat the first
        // process's transaction IDs, which random ones never do).
        let new = try GroceryStore.temporary(
            in: directory, modelVersion: 2, defaultData: true, ids: SequentialIDs(prefix: "00000002"))
        #expect(new.modelVersion == 2)
        #expect(try new.exportArchive() == before)
        var changes = ItemChanges()
        changes.note = "barista"
        #expect(try new.editItem("oat milk", changes).item.note == "barista")
    }

    @Test func aVersion2StoreIsRefusedAtVersion1() throws {
        _ = try GroceryStore.temporary(in: directory, modelVersion: 2)
        #expect(throws: GroceryError.self) { _ = try GroceryStore.temporary(in: directory, modelVersion: 1) }
    }

    @Test func recordsCarryTheirModelVersion() throws {
        let store = try GroceryStore.temporary(in: directory, modelVersion: 1)
        _ = try store.addItem(ItemDraft(name: "Tea"))
        let version = try store.objects.read { db in
            try Int.fetchOne(db, sql: "SELECT modelVersion FROM ubiquity_outbox")
        }
        #expect(version == 1)
    }
}
