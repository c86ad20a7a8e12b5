import Foundation

/// Text folded for searching: case folded, without diacritics, full-width forms made narrow, in
/// NFC, so that "creme" finds "Crème" and a name finds itself whichever Unicode form either side
/// is in (composed "é" or "e" with a combining accent; a Hangul syllable or its jamo).
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // ASCII (most names) folds by lowercasing its bytes; the rest goes through Foundation.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else {
                return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                    .precomposedStringWithCanonicalMapping
            }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
