import Foundation
import GroceryModel

/// Items grouped for a list screen: sections in order, rows by name within each.
public struct ItemSection: Hashable, Sendable {
    public let title: String
    public let rows: [ItemRow]
}

/// How items are grouped by home location, the way Prepare shows them.
public enum ItemGrouping {
    /// The group of items that have no location. A label, not a record (see DECISIONS.md).
    public static let unknownLocation = "Unknown location"

    /// Sections by home location, sorted by name ignoring case; "Unknown location" last.
    public static func byHomeLocation(_ rows: [ItemRow]) -> [ItemSection] {
        grouped(rows, by: \.homeLocationName)
    }

    /// Sections by shop aisle, the way Shop shows them; "Unknown location" last.
    public static func byShopAisle(_ rows: [ItemRow]) -> [ItemSection] {
        grouped(rows, by: \.shopLocationName)
    }

    static func grouped(_ rows: [ItemRow], by location: KeyPath<ItemRow, String?>) -> [ItemSection] {
        let groups = Dictionary(grouping: rows) { $0[keyPath: location] }
        let titled = groups.keys.compactMap { $0 }.sorted {
            $0.localizedCaseInsensitiveCompare($1) == .orderedAscending
        }
        var sections = titled.map { ItemSection(title: $0, rows: sortedByName(groups[$0]!)) }
        if let unknown = groups[nil] { sections.append(ItemSection(title: unknownLocation, rows: sortedByName(unknown))) }
        return sections
    }

    static func sortedByName(_ rows: [ItemRow]) -> [ItemRow] {
        rows.sorted {
            let order = $0.name.localizedCaseInsensitiveCompare($1.name)
            return order == .orderedSame ? $0.id < $1.id : order == .orderedAscending
        }
    }
}
