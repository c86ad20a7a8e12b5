import Foundation
import GRDB

/// How unique attributes compare (Item.name, Unit.name, …): surrounding and repeated spaces
/// ignored, case folded, Unicode-normalized. `kg` and `Kg`, `" Tin"` and `Tin`, `Straße` and
/// `STRASSE`, and "Café" with a composed "é" or with "e" and a combining accent are the same key.
///
/// Keys are compared as bytes (SQL's `GROUP BY`, `IN`), so they are built in one form: the
/// canonical decomposition is case folded, then composed again (NFC). Stored values are never
/// rewritten to match: a name that arrives from a peer in another form keeps its spelling, and
/// still has the same key.
public enum UniqueKey {
    /// The key of `text`. ASCII text, the common case, takes a fast path over its bytes.
    public static func normalize(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { key in
                asciiKey(of: bytes, into: key).map {
                    String(decoding: UnsafeBufferPointer(rebasing: key[..<$0]), as: UTF8.self)
                }
            }
        } ?? slowNormalize(text)
    }

    /// Writes the key of ASCII text into `key` (as many bytes as the text at most) and answers
    /// its length; `nil` when the text is not ASCII. Surrounding spaces are dropped, repeated
    /// ones made one space, letters put in lower case.
    static func asciiKey(of text: UnsafeBufferPointer<UInt8>, into key: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var count = 0
        var pendingSpace = false
        for byte in text {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                key[count] = 0x20
                count += 1
                pendingSpace = false
            }
            key[count] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            count += 1
        }
        return count
    }

    private static func slowNormalize(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .decomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCanonicalMapping
    }
}
