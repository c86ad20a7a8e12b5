import Foundation
import GRDB
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

    public var grouping: Grouping
    /// Only the items on the shopping list (Shop).
    public var listedOnly: Bool
    /// Only items whose name contains this, ignoring case and diacritics ("creme" finds
    /// "Crème"); empty for all.
    public var search: String

    public init(grouping: Grouping, listedOnly: Bool = false, search: String = "") {
        self.grouping = grouping
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

    public var rows: Range<Int> { start..<(start + count) }
}

/// The order of a list screen's items without their contents: the IDs, sorted by location then
/// name, and the sections. It is what a list fetches whenever the store changes; rows are read
/// only for the IDs on screen (``GroceryStore/itemRows(_:)``), the way a fetched results
/// controller with a batch size reads objects.
public struct ItemListIndex: Hashable, Sendable {
    /// The label of the group of items that have no location. A label, not a record (DECISIONS §4).
    public static let unknownLocation = "Unknown location"

    public var ids: [GlobalID] = []
    public var sections: [ItemListSection] = []
    /// How many of these items are on the shopping list.
    public var listedCount = 0

    public init() {}

    public var count: Int { ids.count }

    /// The section holding row `index`.
    public func section(containing index: Int) -> Int? {
        // Sections are few (one per location); a binary search keeps it cheap anyway.
        var low = 0, high = sections.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if index < sections[middle].start { high = middle - 1 }
            else if index >= sections[middle].start + sections[middle].count { low = middle + 1 }
            else { return middle }
        }
        return nil
    }
}

extension GroceryStore {
    /// The order and grouping of the items a list shows, reading only their IDs: sections by
    /// location name (ignoring ASCII case; items without a location last, as "Unknown
    /// location"), rows by name within a section.
    public func itemIndex(_ query: ItemListQuery) throws -> ItemListIndex {
        try objects.read { db in
            let kind = query.grouping.kind
            let location = "\(kind.table).\(kind.nameAttribute)"
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if query.listedOnly { conditions.append("item.listed") }
            let search = TextFolding.fold(query.search.trimmingCharacters(in: .whitespaces))
            if !search.isEmpty {
                conditions.append("instr(ubiquity_fold(item.name), ?) > 0")
                arguments += [search]
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            // One pass, in the list's order. The location's ID separates two locations of the same
            // name (before deduplication merges them); the title is read only where it changes.
            let sql = """
                SELECT item.id, item.\(kind.itemRelationship), item.listed, \(location)
                FROM item LEFT JOIN \(kind.table) ON \(kind.table).id = item.\(kind.itemRelationship)\(filter)
                ORDER BY \(location) IS NULL, \(location) COLLATE NOCASE, \(kind.table).id,
                         item.name COLLATE NOCASE, item.id
                """
            var index = ItemListIndex()
            var currentLocation: String?? = .none
            var sectionStart = 0
            var title = ""
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let locationID: String? = row[1]
                if currentLocation == .none || currentLocation! != locationID {
                    if currentLocation != .none {
                        index.sections.append(ItemListSection(title: title, start: sectionStart, count: index.ids.count - sectionStart))
                    }
                    currentLocation = .some(locationID)
                    sectionStart = index.ids.count
                    let name: String? = row[3]
                    title = name ?? ItemListIndex.unknownLocation
                }
                index.ids.append(row[0])
                if row[2] as Bool { index.listedCount += 1 }
            }
            if currentLocation != .none {
                index.sections.append(ItemListSection(title: title, start: sectionStart, count: index.ids.count - sectionStart))
            }
            return index
        }
    }

    /// The rows of these items, in one query; items no longer in the store are missing.
    public func itemRows(_ ids: some Collection<GlobalID>) throws -> [GlobalID: ItemRow] {
        guard !ids.isEmpty else { return [:] }
        return try objects.read { db in
            var rows: [GlobalID: ItemRow] = [:]
            rows.reserveCapacity(ids.count)
            // SQLite allows 32,766 arguments; a screenful and its margin are far fewer.
            for chunk in Array(ids).chunked(into: 1000) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let cursor = try Row.fetchCursor(db, sql: try ItemRow.selectSQL(db) + " WHERE item.id IN (\(marks))",
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
