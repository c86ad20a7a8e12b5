import Foundation
import GRDB
import Ubiquity

extension GroceryStore {
    /// The first `rows` rows of a list by location, for the first screen of a large list: the
    /// whole order (``itemIndex(_:)``) scans every item — 150 ms at 100,000 — while this reads
    /// the locations, the first locations' items up to `rows`, and counts of every location's
    /// items, so each section's header and the list's count are already the whole list's
    /// (``ItemListSection/total``, ``ItemListIndex/total``). Sections after
    /// the page are left out.
    ///
    /// The rows are those ``itemIndex(_:)`` puts first, in its order: a location's items come in
    /// SQL's order, which is the lists' order when every name in it is ASCII (``NameOrder``);
    /// a location holding another name is read whole and sorted as the whole order sorts it.
    ///
    /// - Returns: `nil` for a list this does not cut short — by name, searched, or another
    ///   shop's (its aisles are links of their own) — which the caller fetches whole.
    public func itemIndexFirstPage(_ query: ItemListQuery, rows: Int) throws -> ItemListIndex? {
        guard query.order == .byLocation, query.search.trimmingCharacters(in: .whitespaces).isEmpty,
            query.grouping == .homeLocation || query.shop == nil || query.shop == .defaultShop
        else { return nil }
        return try objects.read { db in
            let link = query.grouping.kind.itemRelationship
            let locations = try listLocations(query, db)
            // Every location's count of the list's items: a scan of the index of the items' links
            // for a list of every item (a tenth of a scan of the items), of the items for a list
            // of the listed ones. A count of every item's `listed` would visit each item's row
            // from that index, in its order: twenty times as long.
            var totals: [String: Int] = [:]
            var index = ItemListIndex()
            let counts = try Row.fetchCursor(
                db,
                sql: "SELECT \(link), count(*) FROM item\(query.listedOnly ? " WHERE listed" : "") GROUP BY \(link)")
            while let row = try counts.next() {
                totals[row[0] as String? ?? "", default: 0] += row[1] as Int
            }
            let listed = query.listedOnly ? " AND listed" : ""
            // A list of every item leaves the listed ones uncounted: that is a scan of the items,
            // twice the rest of the page's time; the whole order brings it.
            if query.listedOnly {
                index.listedCount = totals.values.reduce(0, +)
            } else {
                index.knowsListedCount = false
            }
            index.itemsInStore =
                query.listedOnly
                ? try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 : totals.values.reduce(0, +)
            let known = Set(locations.map(\.id))
            let unknownTotal = totals.filter { !known.contains($0.key) }.values.reduce(0, +)
            var remaining = rows
            var whole = 0
            func add(_ title: String, total: Int, where condition: String, _ arguments: StatementArguments) throws {
                whole += total
                guard total > 0, remaining > 0 else { return }
                let outsideASCII =
                    try Bool.fetchOne(
                        db,
                        sql: """
                            SELECT EXISTS (SELECT 1 FROM item WHERE \(condition)\(listed)
                                AND length(name) != length(CAST(name AS BLOB)))
                            """, arguments: arguments) ?? true
                let limit = outsideASCII ? "" : " LIMIT \(remaining)"
                let read: [(id: ItemID, name: String)] = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT id, name FROM item WHERE \(condition)\(listed) ORDER BY name COLLATE NOCASE, id\(limit)",
                    arguments: arguments
                ).map { ($0[0], $0[1]) }
                let found = NameOrder.sorted(read, name: \.name).prefix(remaining)
                index.sections.append(
                    ItemListSection(title: title, start: index.ids.count, count: found.count, total: total))
                index.ids += found.map(\.id)
                remaining -= found.count
            }
            for location in locations {
                try add(
                    location.name ?? ItemListIndex.unknownLocation, total: totals[location.id] ?? 0,
                    where: "\(link) = ?", [location.id])
            }
            // No location, or one not among the list's (not arrived yet from its peer).
            let marks = locations.map { _ in "?" }.joined(separator: ", ")
            try add(
                ItemListIndex.unknownLocation, total: unknownTotal,
                where: "(\(link) IS NULL OR \(link) NOT IN (\(marks)))", StatementArguments(locations.map(\.id)))
            index.firstPageOf = whole
            return index
        }
    }
}
