import Foundation
import Ubiquity

/// How list searches compare names: ignoring case and diacritics, so "creme" finds "Crème".
public enum SearchText {
    public static func fold(_ text: String) -> String { TextFolding.fold(text) }

    /// Whether `name` contains `query` (folded); an empty query matches everything.
    public static func matches(_ name: String, _ query: String) -> Bool {
        let wanted = fold(query.trimmingCharacters(in: .whitespaces))
        return wanted.isEmpty || fold(name).contains(wanted)
    }
}
