import Testing
import TextAndFiles

@Suite("ASCII text")
struct ASCIITests {
    /// Every byte below 0x80 is ASCII and none from 0x80 on, for a string and for bytes alike
    /// (a folder's name as `readdir` gave it need not be UTF-8).
    @Test func textIsASCIIWhenEveryByteIsBelow0x80() {
        for byte in UInt8(0)...UInt8(0x7F) {
            #expect([byte].isASCII && String(decoding: [byte], as: UTF8.self).isASCII, "\(byte)")
        }
        for byte in UInt8(0x80)...UInt8(0xFF) { #expect(![UInt8(ascii: "a"), byte].isASCII, "\(byte)") }
        #expect("".isASCII && [UInt8]().isASCII)
        #expect("peer-a_01".isASCII && !"Café".isASCII && !"a\u{80}".isASCII && !"👨‍👩‍👧".isASCII)
        #expect(!"Café".utf8.isASCII && "Cafe".utf8.isASCII)
    }
}
