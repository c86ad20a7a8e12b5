import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

/// The indexes a store keeps are those its queries read: names found through the index of their
/// key, lists read in the order of theirs, referrers through the relationships'; those of the
/// first model version that no query reads are dropped when a store opens.
@Suite("The indexes of a grocery store")
struct LocalIndexesTests {
    let directory = TemporaryDirectory("local-indexes")

    func indexes(_ store: GroceryStore) throws -> Set<String> {
        try store.objects.read { db in
            try String.fetchSet(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = 'item'"
            )
        }
    }

    func plan(_ store: GroceryStore, _ sql: String) throws -> String {
        try store.objects.read { db in
            let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
            let arguments = StatementArguments(Array(repeating: "x", count: sql.filter { $0 == "?" }.count))
            return try Row.fetchAll(statement, arguments: arguments).map { $0["detail"] as String }.joined(
                separator: "; ")
        }
    }

    @Test func everyQueryOfItemsReadsAnIndexAndNoIndexIsLeftUnread() throws {
        let store = try GroceryStore.temporary(in: directory)
        #expect(
            try indexes(store) == [
                "item_list_order", "ubiquity_key_nfc_casefold_covering_item",
                "item_on_unit", "item_on_locationAtHome", "item_on_locationAtShop", "item_photo_given",
            ])
        #expect(
            try plan(store, ReferenceResolver.namedSQL(table: "item", nameColumn: "name")).contains(
                "INDEX ubiquity_key_nfc_casefold_covering_item"))
        for filter in ["", " WHERE item.listed"] {
            let listing = try plan(store, "SELECT id FROM item\(filter) ORDER BY item.name COLLATE NOCASE, item.id")
            #expect(listing.contains("INDEX item_list_order") && !listing.contains("TEMP B-TREE"), "\(listing)")
        }
        for (relationship, index) in [
            "unit": "item_on_unit", "locationAtHome": "item_on_locationAtHome",
            "locationAtShop": "item_on_locationAtShop", "photo": "item_photo_given",
        ] {
            #expect(
                try plan(store, "SELECT id FROM item WHERE \(relationship) = ?").contains("INDEX \(index)"),
                "\(relationship)")
            #expect(
                try plan(store, "SELECT count(*) FROM item WHERE \(relationship) = ?").contains("INDEX \(index)"),
                "\(relationship)")
        }
    }

    /// A store an older build made has the indexes no query reads: they go at its next open, with
    /// everything in it kept, and later opens change nothing.
    @Test func aStoreWithTheUnreadIndexesLosesThemAndNothingElse() throws {
        var store: GroceryStore? = try GroceryStore.temporary(in: directory, defaultData: true)
        let before = try store!.exportArchive()
        try store!.objects.write { db in
            try db.execute(
                sql: """
                    DROP INDEX item_list_order; DROP INDEX item_photo_given; CREATE INDEX item_on_photo ON item(photo);
                    CREATE INDEX item_on_name ON item(name); CREATE INDEX item_on_listed ON item(listed);
                    CREATE INDEX unit_on_name ON unit(name); CREATE INDEX locationAtHome_on_storedIn ON locationAtHome(storedIn);
                    CREATE INDEX locationAtShop_on_aisle ON locationAtShop(aisle);
                    """)
        }
        try store!.close()
        store = nil

        let reopened = try GroceryStore.temporary(in: directory, defaultData: true)
        let all = try reopened.objects.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
        }
        #expect(all.isDisjoint(with: LocalIndexes.unread))
        #expect(all.isSuperset(of: ["item_list_order", "item_photo_given"]))
        #expect(try reopened.exportArchive() == before)
        try reopened.close()
        let schemaVersion = try DatabaseQueue(path: directory.file("store.sqlite").path).read { db in
            try Int.fetchOne(db, sql: "PRAGMA schema_version")
        }

        // One connection, as a command opens it: a pool of connections makes and drops a table
        // of its own (GRDB) whenever the write-ahead log is missing.
        let again = try GroceryStore(path: directory.file("store.sqlite").path, connections: .single)
        #expect(
            try again.objects.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") } == schemaVersion,
            "an open with every index in place makes and drops nothing")
    }
}

extension LocalIndexesTests {
    /// On a real disk of 8 MiB (tmpfs; needs root), full: the indexes cannot change, and the store
    /// opens all the same, everything readable; once there is room, the next open puts them right.
    @Test func aStoreOnAFullDiskOpensWithItsIndexesAsTheyAre() throws {
        let disk = try #require(SmallDisk(bytes: 8 << 20), Comment(rawValue: SmallDisk.needsRoot))
        let path = disk.url.appendingPathComponent("store.sqlite").path
        var store: GroceryStore? = try GroceryStore(path: path, defaultData: true, connections: .single)
        let before = try store!.exportArchive()
        try store!.objects.write { db in
            try db.execute(
                sql:
                    "DROP INDEX item_photo_given; CREATE INDEX item_on_photo ON item(photo); CREATE INDEX item_on_name ON item(name)"
            )
        }
        try store!.close()
        store = nil

        try disk.fill(leaving: 40 * 1024)
        let full = try GroceryStore(path: path, defaultData: true, connections: .single)
        #expect(try full.exportArchive() == before)
        let indexes = try full.objects.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
        }
        #expect(indexes.isSuperset(of: ["item_on_photo", "item_on_name"]), "nothing could be written")
        try full.close()

        try disk.empty()
        let roomy = try GroceryStore(path: path, defaultData: true, connections: .single)
        let after = try roomy.objects.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
        }
        #expect(after.isDisjoint(with: LocalIndexes.unread) && after.contains("item_photo_given"))
        #expect(try roomy.exportArchive() == before)
    }
}
