import Foundation
import GRDB
import TextAndFiles
import Ubiquity

/// Which items a list screen shows, and how it groups them.
public struct ItemListQuery: Hashable, Sendable {
    public enum Grouping: Hashable, Sendable {
        /// Prepare: by the item's home location.
        case homeLocation
        /// Shop: by the item's shop aisle.
        case shopAisle

        var kind: CatalogKind { self == .homeLocation ? .home : .shop }
    }

    /// How rows are ordered: in a section per location (by name within it), or all by name.
    public enum Order: Hashable, Sendable {
        case byLocation
        /// One section, ``ItemListIndex/byNameTitle``, every row by name.
        case byName
    }

    public var grouping: Grouping
    /// The shop whose aisles group a Shop list (model version 3); the default shop when `nil`.
    public var shop: ShopID?
    public var order: Order
    /// Only the items on the shopping list (Shop; Prepare's "only listed" filter).
    public var listedOnly: Bool
    /// Only items whose name contains this, ignoring case and diacritics ("creme" finds
    /// "Crème"); empty for all.
    public var search: String

    public init(
        grouping: Grouping, shop: ShopID? = nil, order: Order = .byLocation, listedOnly: Bool = false,
        search: String = ""
    ) {
        self.grouping = grouping
        self.shop = shop
        self.order = order
        self.listedOnly = listedOnly
        self.search = search
    }
}

/// One group of a list: a location's title and where its rows are in the list's order.
public struct ItemListSection: Hashable, Sendable {
    /// The location's name, or "Unknown location" for items without one.
    public let title: String
    /// The position of the section's first row among all rows.
    public let start: Int
    public let count: Int
    /// How many items the section holds in all: ``count`` but in a first page
    /// (``ItemListIndex/isFirstPage``), which holds only the first of them.
    public let total: Int

    public init(title: String, start: Int, count: Int, total: Int? = nil) {
        self.title = title
        self.start = start
        self.count = count
        self.total = total ?? count
    }

    public var rows: Range<Int> { start..<(start + count) }
}

/// The order of a list screen's items without their contents: the IDs, sorted by location then
/// name, and the sections. It is what a list fetches whenever the store changes; rows are read
/// only for the IDs on screen (``GroceryStore/itemRows(_:)``), the way a fetched results
/// controller with a batch size reads objects.
public struct ItemListIndex: Hashable, Sendable {
    /// The label of the group of items that have no location. A label, not a record (docs/decisions/0004).
    public static let unknownLocation = "Unknown location"
    /// The one section's title when a list is ordered by name, not by location.
    public static let byNameTitle = "By name"

    public var ids: [ItemID] = []
    public var sections: [ItemListSection] = []
    /// How many of these items are on the shopping list.
    public var listedCount = 0
    /// Whether ``listedCount`` was counted: not in the first page of a list of every item.
    public var knowsListedCount = true
    /// How many items the store held when this was fetched, shown or not: what a fetch scans.
    public var itemsInStore = 0
    /// For only the first rows of the list (``GroceryStore/itemIndexFirstPage(_:rows:)``), shown
    /// while the whole order is fetched: how many rows the whole list has. `nil` for a whole order.
    public var firstPageOf: Int?
    /// How many rows the whole list has.
    public var total: Int { firstPageOf ?? count }

    public init() {}

    public var count: Int { ids.count }

    /// The section holding row `index`.
    public func section(containing index: Int) -> Int? {
        // Sections are few (one per location); a binary search keeps it cheap anyway.
        var low = 0
        var high = sections.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if index < sections[middle].start {
                high = middle - 1
            } else if index >= sections[middle].start + sections[middle].count {
                low = middle + 1
            } else {
                return middle
            }
        }
        return nil
    }
}

extension GroceryStore {
    /// The order and grouping of the items a list shows, reading only their IDs: sections by
    /// location name (ignoring ASCII case; items without a location last, as "Unknown
    /// location"), rows by name within a section; or, ordered ``ItemListQuery/Order/byName``,
    /// every row by name in one section.
    ///
    /// The locations first, sorted by name; then one scan of the items in name order (the
    /// `item_list_order` index: no sort), dealt into one bucket per location — each item's link
    /// found among the locations by its stored bytes (``IDTextTable``), no string made of it.
    public func itemIndex(_ query: ItemListQuery) throws -> ItemListIndex {
        try objects.read { db in
            let kind = query.grouping.kind
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if query.listedOnly { conditions.append("listed") }
            let search = TextFolding.fold(query.search.trimmingCharacters(in: .whitespaces))
            if !search.isEmpty {
                conditions.append("instr(\(TextFolding.sqlName)(name), ?) > 0")
                arguments += [search]
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let shop = query.grouping == .shopAisle ? (query.shop ?? .defaultShop) : nil
            let inShop = shop.map { $0 != .defaultShop && objects.schema.version >= 3 } ?? false
            let locations = try listLocations(query, db)
            // An item's link is the position of its location here, by the link's exact stored
            // text; a link to a location not here (not arrived yet from its peer) is none.
            var byText = IDTextTable<Int>()
            var byString: [String: Int] = [:]
            for (position, location) in locations.enumerated() {
                byText.insert(location.id, position)
                byString[location.id] = position
            }
            typealias Entry = (id: ItemID, listed: Bool)
            typealias Scanned = (id: ItemID, location: Int?, listed: Bool, name: String)
            var scanned: [Scanned] = []
            // Another shop's aisle of an item is its link there (one, or the first until a
            // deduplication merges two).
            let link =
                inShop
                ? "(SELECT aisle FROM itemAisle WHERE itemAisle.item = item.id AND itemAisle.shop = ? ORDER BY itemAisle.id LIMIT 1)"
                : kind.itemRelationship
            let statement = try db.makeStatement(
                sql: """
                    SELECT id, \(link), listed, name FROM item INDEXED BY item_list_order\(filter)
                    ORDER BY name COLLATE NOCASE, id
                    """)
            let rows = try Row.fetchCursor(
                statement, arguments: inShop ? StatementArguments([shop?.description]) + arguments : arguments)
            while let row = try rows.next() {
                let location = GlobalID.textBytes(statement.sqliteStatement, 1).flatMap { bytes in
                    byText.value(bytes) ?? byString[String(decoding: bytes, as: UTF8.self)]
                }
                scanned.append((row[0], location, row[2], row[3]))
            }
            let sorted = NameOrder.sorted(scanned, name: \.name)
            var index = ItemListIndex()
            index.itemsInStore =
                conditions.isEmpty ? scanned.count : try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
            if query.order == .byName {
                if !sorted.isEmpty {
                    index.sections = [ItemListSection(title: ItemListIndex.byNameTitle, start: 0, count: sorted.count)]
                }
                index.ids = sorted.map(\.id)
                index.listedCount = sorted.count { $0.listed }
                return index
            }
            // Buckets filled in name order stay in it.
            var buckets = [[Entry]](repeating: [], count: locations.count)
            var unknown: [Entry] = []
            for item in sorted {
                if let location = item.location {
                    buckets[location].append((item.id, item.listed))
                } else {
                    unknown.append((item.id, item.listed))
                }
            }
            func add(_ title: String, _ entries: [Entry]) {
                guard !entries.isEmpty else { return }
                index.sections.append(ItemListSection(title: title, start: index.ids.count, count: entries.count))
                for entry in entries {
                    index.ids.append(entry.id)
                    if entry.listed { index.listedCount += 1 }
                }
            }
            for (location, entries) in zip(locations, buckets) {
                add(location.name ?? ItemListIndex.unknownLocation, entries)
            }
            add(ItemListIndex.unknownLocation, unknown)
            return index
        }
    }

    /// The sections' locations of a list, in their order: none for a list by name; a shop's
    /// aisles in its walking order (``WalkingOrder``), which is natural order until one is
    /// moved; home locations in natural order.
    func listLocations(_ query: ItemListQuery, _ db: Database) throws -> [(id: String, name: String?)] {
        let kind = query.grouping.kind
        if query.order == .byName { return [] }
        if query.grouping == .shopAisle, objects.schema.version >= 3 {
            return try Self.aisles(in: (query.shop ?? .defaultShop).globalID, db).map { ($0.id.description, $0.name) }
        }
        return NameOrder.naturallySorted(
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, \(kind.nameAttribute) FROM \(kind.table) ORDER BY \(kind.nameAttribute) COLLATE NOCASE, id
                    """
            ).map { (id: $0[0] as String, name: $0[1] as String?) }, name: { $0.name ?? "" })
    }

    /// The rows of these items, in one query; items no longer in the store are missing.
    public func itemRows(_ ids: some Collection<ItemID>) throws -> [ItemID: ItemRow] {
        guard !ids.isEmpty else { return [:] }
        return try objects.read { db in
            var rows: [ItemID: ItemRow] = [:]
            rows.reserveCapacity(ids.count)
            // SQLite allows 32,766 arguments; a screenful and its margin are far fewer.
            for chunk in Array(ids).chunked(into: 1000) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let cursor = try Row.fetchCursor(
                    db, sql: try ItemRow.selectSQL(db) + " WHERE item.id IN (\(marks))",
                    arguments: StatementArguments(chunk))
                while let row = try cursor.next() {
                    let item = try ItemRow(row: row)
                    rows[item.id] = item
                }
            }
            return rows
        }
    }
}

extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
