import Foundation
import Testing
@testable import TerminalUI

@Suite("The in-memory screen")
struct ScreenBufferTests {
    @Test func wideCharactersTakeTwoColumns() {
        #expect(TextWidth.columns(of: "abc") == 3)
        #expect(TextWidth.columns(of: "牛乳") == 4)
        #expect(TextWidth.columns(of: "🍞") == 2)
        #expect(TextWidth.columns(of: "é") == 1)
        #expect(TextWidth.columns(of: "e\u{301}") == 1)
    }

    @Test func aWideCharacterIsNeverCutInHalf() {
        var screen = ScreenBuffer(width: 5, height: 1)
        let written = screen.put("ab牛乳", row: 0, column: 0)
        #expect(written == 4)
        #expect(screen.lines == ["ab牛 "])
        #expect(TextWidth.truncate("牛乳牛乳", to: 5) == "牛乳…")
        #expect(TextWidth.truncate("牛乳牛乳", to: 4, ellipsis: false) == "牛乳")
        #expect(TextWidth.truncate("short", to: 10) == "short")
    }

    @Test func writesOutsideTheScreenAreClipped() {
        var screen = ScreenBuffer(width: 3, height: 2)
        screen.put("hello", row: 1, column: 1)
        screen.put("x", row: 5, column: 0)
        screen.put("y", row: 0, column: -1)
        #expect(screen.lines == ["   ", " he"])
    }
}
