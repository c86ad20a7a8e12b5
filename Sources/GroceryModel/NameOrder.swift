import Foundation
import TextAndFiles
import Ubiquity

/// The order of names in every list: alphabetical as a reader expects, so that "Éclair" sorts
/// with the E's and "éclair" beside "Eclair", not after "Z".
///
/// SQLite's `NOCASE` (and the index on it) orders ASCII names that way already, and most names
/// are ASCII: rows come from SQL in `NOCASE` order, and are sorted again here — by the folded
/// name (``TextFolding``: case, accents and width folded), then the name, then the ID, as SQL
/// did — only when a name outside ASCII is among them.
enum NameOrder {
    /// `rows` in reading order, given each row's name; stable for rows that compare equal.
    static func sorted<Row>(_ rows: [Row], name: (Row) -> String) -> [Row] {
        guard rows.contains(where: { !name($0).isASCII }) else { return rows }
        let keyed = rows.enumerated().map {
            (key: TextFolding.fold(name($0.element)), position: $0.offset, row: $0.element)
        }
        return keyed.sorted { ($0.key, $0.position) < ($1.key, $1.position) }.map(\.row)
    }

    /// `rows` in natural order of their names (``NaturalOrder``: "Aisle 2" before "Aisle 10"):
    /// for the names of units, home locations, aisles and lists. SQL's order stands when no name
    /// holds a digit or a letter outside ASCII.
    static func naturallySorted<Row>(_ rows: [Row], name: (Row) -> String) -> [Row] {
        guard rows.contains(where: { name($0).utf8.contains { $0 >= 0x80 || (0x30...0x39).contains($0) } }) else {
            return rows
        }
        let keyed = rows.enumerated().map { (name: name($0.element), position: $0.offset, row: $0.element) }
        return keyed.sorted { a, b in
            if NaturalOrder.areInIncreasingOrder(a.name, b.name) { return true }
            if NaturalOrder.areInIncreasingOrder(b.name, a.name) { return false }
            return a.position < b.position
        }.map(\.row)
    }
}
