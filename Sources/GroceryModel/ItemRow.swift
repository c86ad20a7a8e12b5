import Foundation
import GRDB
import GRDBSQLite
import Ubiquity

/// An item with the names of what it points at: what lists and screens show.
public struct ItemRow: Hashable, Sendable, Identifiable {
    public var item: Item
    public var unitName: String?
    public var homeLocationName: String?
    public var shopLocationName: String?
    /// The photo's size in bytes, or `nil` without a photo.
    public var photoSize: Int?

    public var id: ItemID { item.id }
    public var name: String { item.name }

    /// "2 L Milk", "1.5 kg Flour", "Bread": quantity (omitted when it is 1 without a unit),
    /// unit and name, as the book's rows read.
    public var summary: String {
        let quantity = QuantityFormat.string(item.quantity)
        let unit = unitName?.trimmingCharacters(in: .whitespaces) ?? ""
        if unit.isEmpty {
            return item.quantity == 1 ? item.name : "\(quantity) \(item.name)"
        }
        return "\(quantity) \(unit) \(item.name)"
    }

    /// The query that reads item rows from the store at `db`; add a WHERE / ORDER BY.
    static func selectSQL(_ db: Database) throws -> String {
        let modelVersion = try hasNote(db) ? 2 : 1
        return """
            SELECT unit.name, locationAtHome.storedIn, locationAtShop.aisle, length(itemPhoto.data),
                   \(Item.selection(modelVersion: modelVersion))
            FROM item
            LEFT JOIN unit ON unit.id = item.unit
            LEFT JOIN locationAtHome ON locationAtHome.id = item.locationAtHome
            LEFT JOIN locationAtShop ON locationAtShop.id = item.locationAtShop
            LEFT JOIN itemPhoto ON itemPhoto.id = item.photo
            """
    }

    /// Whether the store's items have notes (model version 2 and later).
    static func hasNote(_ db: Database) throws -> Bool {
        // SQLite answers from the schema it holds parsed: no query. GRDB's `columns(in:)` read
        // the table's columns into a cache of its own the first time, with a pragma and its own
        // record type: 1.4M of `item list`'s 38M instructions.
        sqlite3_table_column_metadata(db.sqliteConnection, "main", "item", "note", nil, nil, nil, nil, nil)
            == SQLITE_OK
    }

    init(item: Item, unitName: String?, homeLocationName: String?, shopLocationName: String?, photoSize: Int?) {
        self.item = item
        self.unitName = unitName
        self.homeLocationName = homeLocationName
        self.shopLocationName = shopLocationName
        self.photoSize = photoSize
    }

    init(row: Row) throws {
        unitName = row[0]
        homeLocationName = row[1]
        shopLocationName = row[2]
        photoSize = row[3]
        item = Item(row: row, offset: 4, hasNote: row.count > ItemColumn.note.index(from: 4))
    }
}
