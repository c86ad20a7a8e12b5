import Foundation
import Testing
import TextAndFiles

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

    @Test func stylesReadAsALetterPerCellWithALegend() {
        var screen = ScreenBuffer(width: 8, height: 3)
        screen.put("Tab", row: 0, column: 0, style: CellStyle(bold: true, reverse: true, color: .title))
        screen.put("牛x", row: 1, column: 2, style: CellStyle(reverse: true))
        screen.put("odd", row: 2, column: 0, style: CellStyle(dim: true, color: .hint))
        #expect(
            screen.styleLines == [
                "TTT", "  rrr",
                "\(CellStyle(dim: true, color: .hint).letter)"
                    + String(repeating: CellStyle(dim: true, color: .hint).letter, count: 2),
            ])
        #expect(
            screen.styleLegend == [
                "r = reverse", "T = bold reverse title", "\(CellStyle(dim: true, color: .hint).letter) = dim hint",
            ])
        let letters = Set(
            (0..<56).map { code in
                CellStyle(
                    bold: code & 4 != 0, reverse: code & 2 != 0, dim: code & 1 != 0,
                    color: ColorRole(rawValue: code / 8)!
                ).letter
            })
        #expect(letters.count == 56, "every style has a letter of its own")
    }

    @Test func writesOutsideTheScreenAreClipped() {
        var screen = ScreenBuffer(width: 3, height: 2)
        screen.put("hello", row: 1, column: 1)
        screen.put("x", row: 5, column: 0)
        screen.put("y", row: 0, column: -1)
        #expect(screen.lines == ["   ", " he"])
    }
}
