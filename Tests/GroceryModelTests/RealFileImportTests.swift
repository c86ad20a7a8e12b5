import Foundation
import GRDB
import TestSupport
import Testing

@testable import GroceryModel

/// The original app's files from `../shared/data/original-grocery-dude` (skipped when absent).
@Suite("Importing the book's real files", .enabled(if: Fixtures.originalGroceryDude != nil))
struct RealFileImportTests {
    let directory = TemporaryDirectory("real-import")
    var folder: URL { Fixtures.originalGroceryDude! }

    /// name → (unit, home, shop) as the Core Data store holds them, read with plain SQL.
    func expectedFromSQLite() throws -> [String: [String?]] {
        let queue = try DatabaseQueue(
            path: folder.appendingPathComponent("DefaultData.sqlite").path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        return try queue.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT i.ZNAME AS name, u.ZNAME AS unit, h.ZSTOREDIN AS home, s.ZAISLE AS shop FROM ZITEM i
                    LEFT JOIN ZUNIT u ON u.Z_PK = i.ZUNIT
                    LEFT JOIN ZLOCATION h ON h.Z_PK = i.ZLOCATIONATHOME
                    LEFT JOIN ZLOCATION s ON s.Z_PK = i.ZLOCATIONATSHOP
                    """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["name"], [$0["unit"], $0["home"], $0["shop"]]) })
        }
    }

    func imported(_ store: GroceryStore) throws -> [String: [String?]] {
        Dictionary(
            uniqueKeysWithValues: try store.items().map {
                ($0.name, [$0.unitName, $0.homeLocationName, $0.shopLocationName])
            })
    }

    @Test func theCoreDataStoreImportsExactlyWhatItHolds() throws {
        let store = try GroceryStore.temporary(in: directory)
        let path = folder.appendingPathComponent("DefaultData.sqlite").path
        let summary = try store.importFile(path: path)
        #expect(summary.items.inserted == 399)
        #expect(try store.counts() == [399, 8, 18, 17])
        #expect(Set(try store.entries(.unit).map(\.name)) == ["pk", "g", "kg", "ml", "L", "punnet", " Tin", "Kg"])
        #expect(try imported(store) == (try expectedFromSQLite()))
        #expect(try store.items().allSatisfy { !$0.item.listed && !$0.item.collected && $0.item.quantity == 1 })

        let again = try store.importFile(path: path)
        #expect(again.items.inserted == 0 && again.items.updated == 0 && again.items.unchanged == 399)
        #expect(try store.counts() == [399, 8, 18, 17])
    }

    @Test func theXMLImportsTheSameItemsUnitsAndLocations() throws {
        let store = try GroceryStore.temporary(in: directory)
        let path = folder.appendingPathComponent("DefaultData.xml").path
        try store.importFile(path: path)
        // 400 lines, "Potatoes" twice: the later line wins, as in the Core Data store.
        #expect(try store.counts() == [399, 8, 18, 17])
        #expect(try imported(store) == (try expectedFromSQLite()))
        let transactions = try store.transactionCount()
        try store.importFile(path: path)
        #expect(try store.counts() == [399, 8, 18, 17])
        #expect(try store.transactionCount() == transactions + 1)
        let second = try #require(try store.objects.outbox().last)
        // The duplicate "Potatoes" lines flip its unit on each import; nothing else changes.
        #expect(second.inserted.isEmpty && second.deleted.isEmpty)
        #expect(second.updated.count <= 1)
    }

    @Test func bothFilesTogetherMakeNoDuplicates() throws {
        let store = try GroceryStore.temporary(in: directory)
        try store.importFile(path: folder.appendingPathComponent("DefaultData.sqlite").path)
        try store.importFile(path: folder.appendingPathComponent("DefaultData.xml").path)
        #expect(try store.counts() == [399, 8, 18, 17])
    }
}
