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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return slowNormalize(text) }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func slowNormalize(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .decomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// `ubiquity_unique_key(text)` in SQL, registered on every connection of a store.
    static let sqlFunction = DatabaseFunction("ubiquity_unique_key", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(normalize)
    }
}
