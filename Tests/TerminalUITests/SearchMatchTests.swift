import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// The part of a row a search matches stands out, found as the search finds it.
@Suite("Search matches")
struct SearchMatchTests {
    @Test func matchesIgnoreCaseAndAccentsAndMapBackToCharacters() {
        #expect(SearchMatch.range(of: "creme", in: "2 Cr\u{E8}me fra\u{EE}che") == 2..<7)
        #expect(SearchMatch.range(of: "MILK", in: "1 L Oat milk") == 8..<12)
        #expect(SearchMatch.range(of: "cafe", in: "Cafe\u{301}") == 0..<4, "a decomposed é is one character")
        #expect(SearchMatch.range(of: "tea", in: "Coffee") == nil)
        #expect(SearchMatch.range(of: "  ", in: "Tea") == nil)
    }
}
