import Foundation

/// A bound on how deeply a JSON import file nests arrays and objects, checked before parsing.
///
/// A Grocery Dude file nests three levels (the archive, a list, a record); a file nesting far
/// deeper is not one, and is refused with a message saying so instead of being handed to a
/// parser whose own limit, if any, gives no reason.
enum JSONNesting {
    /// The deepest nesting accepted.
    static let limit = 32

    /// - Throws: ``ArchiveError/malformed(_:)`` when arrays and objects nest deeper than ``limit``.
    static func check(_ data: Data) throws {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit {
                    throw ArchiveError.malformed(
                        "arrays and objects nest more than \(limit) levels deep (byte offset \(offset)): not a Grocery Dude file"
                    )
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
    }
}
