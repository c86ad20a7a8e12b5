import Foundation
import GroceryModel
import TextAndFiles

/// Known changes (an import, this screen's own toggle): only the changed rows are read again,
/// when the list's order, sections and counts cannot have moved.
extension ItemListViewModel {
    /// More changed items than this, and the list fetches everything: one index scan is then
    /// cheaper than checking each row's place.
    static let inPlaceLimit = 50

    /// Applies changes whose objects are known. Reads only the changed rows (with their
    /// neighbours, to check their place) when nothing else changed since the last fetch, no
    /// item was added or deleted, no location, unit or photo changed, and each changed item
    /// stays where the list has it: shown or not as before, in its section, between its
    /// neighbours. Otherwise it refetches, as ``refreshIfChanged(inBackground:)`` does (a large
    /// list on another thread).
    ///
    /// - Returns: whether anything was read.
    @discardableResult
    public func apply(_ changes: StoreChanges) -> Bool {
        // Another shop's sections come from its links, which a row does not carry.
        guard changes.otherEntities.isEmpty, changes.updatedItems.count <= Self.inPlaceLimit, searchText.isEmpty,
            query.shop == nil || query.shop == .defaultShop,
            binding.isOnlyChange(changes), let after = changes.tokenAfter,
            let rows = rowsInPlace(changes.updatedItems)
        else {
            return refreshIfChanged(inBackground: true)
        }
        if !query.listedOnly {
            guard let counts = try? store.shoppingListCounts() else { return refreshIfChanged(inBackground: true) }
            index.listedCount = counts.listed
        }
        inPlaceRefreshes += 1
        var changed: Set<ItemID> = []
        for (id, row) in rows where changes.updatedItems.contains(id) && cache[id] != nil {
            if cache[id] != row { changed.insert(id) }
            cache[id] = row
        }
        let onScreen = Set(visibleLines.compactMap(\.row?.id))
        changedRows = changed.intersection(onScreen)
        binding.fetched(after)
        return true
    }

    /// The changed items' rows, read again, when each stays where the list has it; `nil` when
    /// one moves, appears or disappears.
    private func rowsInPlace(_ ids: Set<ItemID>) -> [ItemID: ItemRow]? {
        var positions: [ItemID: Int] = [:]
        for (position, id) in index.ids.enumerated() where ids.contains(id) { positions[id] = position }
        var wanted = ids
        for position in positions.values {
            if position > 0 { wanted.insert(index.ids[position - 1]) }
            if position + 1 < index.count { wanted.insert(index.ids[position + 1]) }
        }
        guard let rows = try? store.itemRows(wanted) else { return nil }
        rowsRead += rows.count
        for id in ids {
            guard let row = rows[id] else { return nil }
            let shown = !query.listedOnly || row.item.listed
            guard let position = positions[id] else {
                if shown { return nil }  // it would appear
                continue
            }
            // Sections are told apart by title: when two share one (two locations of one name
            // before deduplication), a move between them cannot be seen here.
            let title = sectionTitle(of: row)
            guard shown, let section = index.section(containing: position), index.sections[section].title == title,
                index.sections.lazy.filter({ $0.title == title }).count == 1
            else { return nil }
            let rowsOfSection = index.sections[section].rows
            if rowsOfSection.contains(position - 1), !Self.precedes(rows[index.ids[position - 1]], row) { return nil }
            if rowsOfSection.contains(position + 1), !Self.precedes(row, rows[index.ids[position + 1]]) { return nil }
        }
        return rows
    }

    /// The title of the section a row belongs in.
    private func sectionTitle(of row: ItemRow) -> String {
        guard order == .byLocation else { return ItemListIndex.byNameTitle }
        let location = screen == .prepare ? row.homeLocationName : row.shopLocationName
        return location ?? ItemListIndex.unknownLocation
    }

    /// Whether `first` comes strictly before `second` by name, folded (case and accents): strict,
    /// so that names the list orders by ID as well are never taken as in place.
    private static func precedes(_ first: ItemRow?, _ second: ItemRow?) -> Bool {
        guard let first, let second else { return false }
        return TextFolding.fold(first.name) < TextFolding.fold(second.name)
    }
}
