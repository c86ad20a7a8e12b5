import Testing
import TextAndFiles

/// Search text: "creme" finds "Crème", whatever the Unicode form, case or width of either side.
@Suite("Folded search text")
struct TextFoldingTests {
    @Test func caseAccentsAndWidthAreFoldedAway() {
        #expect(TextFolding.fold("Crème Brûlée") == "creme brulee")
        #expect(TextFolding.fold("ÉCLAIR") == "eclair")
        #expect(TextFolding.fold("\u{FF2D}\u{FF49}\u{FF4C}\u{FF4B}") == "milk", "full-width Ｍｉｌｋ")
    }

    @Test func asciiTextIsLowercasedAndKeepsEverythingElse() {
        #expect(TextFolding.fold("MiLK 2% & Co.") == "milk 2% & co.")
        #expect(TextFolding.fold("") == "")
        #expect(TextFolding.fold("[@`{") == "[@`{", "the bytes beside A…Z stay as they are")
    }

    @Test func eitherUnicodeFormOfANameFoldsToOneText() {
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        #expect(TextFolding.fold(composed) == TextFolding.fold(decomposed))
        #expect(TextFolding.fold(decomposed) == "cafe")
        let syllable = "\u{D55C}"  // 한
        let jamo = "\u{1112}\u{1161}\u{11AB}"
        #expect(TextFolding.fold(syllable) == TextFolding.fold(jamo))
        #expect(TextFolding.fold(jamo).unicodeScalars.count == 1, "composed again (NFC)")
    }
}
