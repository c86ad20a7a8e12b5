import Foundation
import GRDB
import GRDBSQLite
import Ubiquity

/// Every item, or those on the shopping list, as `item ls` prints them, in the lists' order
/// (``NameOrder``): read once, straight from SQLite's columns (by their ``ItemColumn`` index,
/// which the SELECT is made from), into two flat arrays — the texts
/// of each item (its ID, name and note, one after another) and a small record of the rest.
///
/// ``GroceryStore/items(listedOnly:)`` makes an ``ItemRow`` of each item: a value of ~200 bytes
/// with a string for its ID. A listing of 10k items spent a tenth of its time on those (the
/// memory they take, a page fault for each new page, and GRDB asking each column's type); this
/// holds ~70 bytes an item and makes no string. The texts are what ``ItemRow`` holds, byte for
/// byte: the ID in lowercase, and text that is not valid UTF-8 repaired, up to its first NUL, as
/// GRDB reads a string.
public struct ItemListing: Sendable {
    /// One item: where its texts are, and its other columns.
    private struct Entry {
        /// The ID's 36 bytes start here, the name follows up to `nameEnd`, the note up to `noteEnd`.
        var start: Int
        var nameEnd: Int
        var noteEnd: Int
        var hasNote: Bool
        var listed: Bool
        var collected: Bool
        var quantity: Double
        var modified: Double
        /// Positions in `unitNames`, `homeNames`, `shopNames`; -1 for none.
        var unit: Int32, home: Int32, shop: Int32
        /// The photo's size in bytes; -1 without a photo.
        var photoSize: Int64
    }

    private var entries: [Entry] = []
    private var text: [UInt8] = []
    private let unitNames: [String], homeNames: [String], shopNames: [String]

    /// How many items there are.
    public var count: Int { entries.count }

    /// Reads the items (only those listed, with `listedOnly`) of the store at `db`.
    init(_ db: Database, listedOnly: Bool) throws {
        let filter = listedOnly ? " WHERE item.listed" : ""
        let names = try LinkedNames(db)
        unitNames = names.names(.unit)
        homeNames = names.names(.home)
        shopNames = names.names(.shop)
        let hasNote = try ItemRow.hasNote(db)
        let statement = try db.makeStatement(
            sql: "SELECT \(Item.selection(modelVersion: hasNote ? 2 : 1)) FROM item" + filter
                + " ORDER BY item.name COLLATE NOCASE, item.id")
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item" + filter) ?? 0
        entries.reserveCapacity(count)
        text.reserveCapacity(count * 48)
        var outsideASCII = false
        let sqlite = statement.sqliteStatement
        // GRDB's cursor steps the statement (and turns SQLite's errors into its own); the columns
        // are read where SQLite holds them.
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            let start = text.count
            // A row whose ID is not one (a store edited by hand) is left out, as the names of
            // units and locations leave such rows out, rather than stopping the listing.
            guard GlobalID.appendText(sqlite, ItemColumn.id.rawValue, to: &text) else { continue }
            outsideASCII = Self.appendText(sqlite, ItemColumn.name.rawValue, to: &text) || outsideASCII
            let nameEnd = text.count
            let noted = hasNote && sqlite3_column_type(sqlite, ItemColumn.note.rawValue) != SQLITE_NULL
            if noted { _ = Self.appendText(sqlite, ItemColumn.note.rawValue, to: &text) }
            let links = names.linkPositions(sqlite)
            entries.append(
                Entry(
                    start: start, nameEnd: nameEnd, noteEnd: text.count, hasNote: noted,
                    listed: sqlite3_column_int64(sqlite, ItemColumn.listed.rawValue) != 0,
                    collected: sqlite3_column_int64(sqlite, ItemColumn.collected.rawValue) != 0,
                    quantity: sqlite3_column_double(sqlite, ItemColumn.quantity.rawValue),
                    modified: sqlite3_column_double(sqlite, ItemColumn.modified.rawValue),
                    unit: links.unit, home: links.home, shop: links.shop,
                    photoSize: names.photoSize(sqlite, ItemColumn.photo.rawValue).map(Int64.init) ?? -1))
        }
        // SQL's order is the lists' order when every name is ASCII (``NameOrder``).
        if outsideASCII {
            let text = self.text
            entries = NameOrder.sorted(entries) { entry in
                String(decoding: text[entry.start + 36..<entry.nameEnd], as: UTF8.self)
            }
        }
    }

    /// A listing of rows made elsewhere (the list at a past moment, ``PastList``), in their order.
    public init(_ rows: [ItemRow]) {
        var positions: [CatalogKind: [String: Int32]] = [:]
        var names: [CatalogKind: [String]] = [.unit: [], .home: [], .shop: []]
        func position(_ kind: CatalogKind, _ name: String?) -> Int32 {
            guard let name else { return -1 }
            if let known = positions[kind]?[name] { return known }
            let new = Int32(names[kind]!.count)
            names[kind]!.append(name)
            positions[kind, default: [:]][name] = new
            return new
        }
        for row in rows {
            let start = text.count
            text.append(contentsOf: row.id.description.utf8)
            text.append(contentsOf: row.name.utf8)
            let nameEnd = text.count
            if let note = row.item.note { text.append(contentsOf: note.utf8) }
            entries.append(
                Entry(
                    start: start, nameEnd: nameEnd, noteEnd: text.count, hasNote: row.item.note != nil,
                    listed: row.item.listed, collected: row.item.collected, quantity: row.item.quantity,
                    modified: row.item.modified.timeIntervalSince1970, unit: position(.unit, row.unitName),
                    home: position(.home, row.homeLocationName), shop: position(.shop, row.shopLocationName),
                    photoSize: row.photoSize.map(Int64.init) ?? -1))
        }
        unitNames = names[.unit]!
        homeNames = names[.home]!
        shopNames = names[.shop]!
    }

    /// Appends the text in column `index` as GRDB reads a `String` (up to its first NUL, invalid
    /// UTF-8 repaired); whether any of it is outside ASCII.
    private static func appendText(_ statement: SQLiteStatement, _ index: CInt, to text: inout [UInt8]) -> Bool {
        guard let start = sqlite3_column_text(statement, index) else { return false }
        let bytes = UnsafeBufferPointer(start: start, count: strlen(start))
        guard !bytes.isASCII else {
            text.append(contentsOf: bytes)
            return false
        }
        text.append(contentsOf: String(cString: start).utf8)
        return true
    }

    // MARK: - An item's columns, by its place in the listing

    /// The ID, lowercase.
    public func id(_ index: Int) -> ArraySlice<UInt8> { text[idRange(index)] }

    public func name(_ index: Int) -> ArraySlice<UInt8> { text[nameRange(index)] }

    /// Where the ID's bytes are among the bytes ``withUnsafeText(_:)`` lends.
    public func idRange(_ index: Int) -> Range<Int> { entries[index].start..<entries[index].start + 36 }

    /// Where the name's bytes are among the bytes ``withUnsafeText(_:)`` lends.
    public func nameRange(_ index: Int) -> Range<Int> { entries[index].start + 36..<entries[index].nameEnd }

    /// Lends the texts of every item, one after another, for the time of `body`: a table copies
    /// IDs and names from them (``idRange(_:)``, ``nameRange(_:)``) without retaining a slice
    /// for each.
    public func withUnsafeText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try text.withUnsafeBufferPointer(body)
    }

    public func note(_ index: Int) -> ArraySlice<UInt8>? {
        noteRange(index).map { text[$0] }
    }

    /// Where the note's bytes are among the bytes ``withUnsafeText(_:)`` lends; `nil` without a note.
    public func noteRange(_ index: Int) -> Range<Int>? {
        entries[index].hasNote ? entries[index].nameEnd..<entries[index].noteEnd : nil
    }

    public func quantity(_ index: Int) -> Double { entries[index].quantity }
    public func listed(_ index: Int) -> Bool { entries[index].listed }
    public func collected(_ index: Int) -> Bool { entries[index].collected }
    public func modified(_ index: Int) -> Date { Date(timeIntervalSince1970: entries[index].modified) }
    public func photoSize(_ index: Int) -> Int? { entries[index].photoSize < 0 ? nil : Int(entries[index].photoSize) }

    public func unitName(_ index: Int) -> String? { linked(.unit, index).map { unitNames[$0] } }
    public func homeLocationName(_ index: Int) -> String? { linked(.home, index).map { homeNames[$0] } }
    public func shopLocationName(_ index: Int) -> String? { linked(.shop, index).map { shopNames[$0] } }

    /// Where the unit, home location or shop aisle the item links to is in ``names(_:)``; `nil`
    /// when it links to none (or to one not here). A table measures each name once this way.
    public func linked(_ kind: CatalogKind, _ index: Int) -> Int? {
        let position =
            switch kind {
            case .unit: entries[index].unit
            case .home: entries[index].home
            case .shop: entries[index].shop
            }
        return position < 0 ? nil : Int(position)
    }

    /// The names of every unit, home location or shop aisle, by position (``linked(_:_:)``).
    public func names(_ kind: CatalogKind) -> [String] {
        switch kind {
        case .unit: unitNames
        case .home: homeNames
        case .shop: shopNames
        }
    }
}

extension GroceryStore {
    /// The items (only those on the shopping list, with `listedOnly`) as `item ls` prints them,
    /// in the order and with the values of ``items(listedOnly:)``.
    public func listing(listedOnly: Bool = false) throws -> ItemListing {
        try objects.read { db in try ItemListing(db, listedOnly: listedOnly) }
    }
}
