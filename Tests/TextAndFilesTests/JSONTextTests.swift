import Foundation
import Testing
import TextAndFiles

/// JSON string literals written by hand: what any JSON reader reads back as the same text.
@Suite("JSON string literals")
struct JSONTextTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONText.quoted("Milk") == #""Milk""#)
        #expect(JSONText.quoted("") == #""""#)
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("1\n2\r3\t4\u{1}5\u{1F}") == #""1\n2\r3\t4\u00015\u001f""#)
        #expect(JSONText.quoted("Crème 👨‍👩‍👧 /") == "\"Crème 👨‍👩‍👧 /\"", "everything else as it is")
    }

    @Test func everyTextReadsBackAsItself() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["Crème \"fraîche\"", "back\\slash", "tab\tand\nnewline\u{1}", "👨‍👩‍👧", "\u{7F}\u{2028}"]
        for text in texts {
            let json = Data("[\(JSONText.quoted(text))]".utf8)
            #expect(try JSONDecoder().decode([String].self, from: json) == [text], "\(text.debugDescription)")
        }
    }

    @Test("a JSON string appended as bytes is the quoted string")
    func appendQuoted() {
        for text in ["", "Milk", "Crème \"fraîche\"", "back\\slash", "tab\tand\nnewline\u{1}", "👨‍👩‍👧", "\u{7F}"] {
            var bytes: [UInt8] = []
            JSONText.appendQuoted(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.quoted(text))
            let plain = Array(text.utf8).withUnsafeBufferPointer(JSONText.isPlain)
            #expect(plain == (JSONText.quoted(text) == "\"" + text + "\""), "plain: written between quotes as it is")
        }
    }
}
