import Foundation
import TextAndFiles

/// Where a search matches a line on screen, to highlight it: compared as the search compares
/// (``TextFolding``: case, accents and width folded), measured in characters of the line.
enum SearchMatch {
    /// The characters of `text` the first match of `query` covers, or nil.
    static func range(of query: String, in text: String) -> Range<Int>? {
        let wanted = TextFolding.fold(query.trimmingCharacters(in: .whitespaces))
        guard !wanted.isEmpty else { return nil }
        // Each character folded on its own, so that a match maps back to characters.
        let folded = text.map { TextFolding.fold(String($0)) }
        for start in folded.indices {
            var joined = ""
            for end in start..<folded.count {
                joined += folded[end]
                if joined.hasPrefix(wanted) { return start..<(end + 1) }
                if !wanted.hasPrefix(joined) { break }
            }
        }
        return nil
    }
}
