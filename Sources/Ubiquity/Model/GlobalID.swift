import Foundation
import GRDB
import GRDBSQLite

/// The global identity of one object, the same on every peer: a UUID given when the object is
/// inserted and never reused.
///
/// Stored in SQLite as lowercase text; ordered by that text, which is what deterministic
/// tie-breaks compare.
public struct GlobalID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Lowercase UUID text, as stored in the database and in files. Kept rather than derived:
    /// lists of thousands of rows print and compare it often.
    public let description: String

    public init(_ uuid: UUID) {
        // Formatted by hand: `uuidString.lowercased()` was a twentieth of a save. The digits
        // computed, not looked up in an array made at every call.
        func hex(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
        }
        description = withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = hex(byte >> 4)
                    text[position + 1] = hex(byte & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    /// Parses the textual form (any case); `nil` when it is not a UUID.
    ///
    /// Checked by hand rather than through `UUID(uuidString:)`: every row read decodes several
    /// IDs, and Foundation's parse and re-format made listing 10k items take a third of a second.
    public init?(_ text: String) {
        var text = text
        // Native strings are contiguous UTF-8: checked as bytes, no iterator per character.
        guard let hasUppercase = text.withUTF8({ Self.check($0) }) else { return nil }
        description = hasUppercase ? text.lowercased() : text
    }

    /// Whether `bytes` are a UUID's 36 characters (hexadecimal digits, dashes at 8, 13, 18 and
    /// 23): whether any digit is uppercase; `nil` when they are not.
    ///
    /// The 32 digits are looked up in a table of each byte's kind and the kinds or'ed together,
    /// with no branch for each byte: a listing checks the ID of every row it reads, and testing
    /// each byte's position and range was 5 % of `item ls` on 10k items.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
            bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        let kinds = digitKinds.withUnsafeBufferPointer { kinds in
            var seen: UInt8 = 0
            for range in [0..<8, 9..<13, 14..<18, 19..<23, 24..<36] {
                for index in range { seen |= kinds[Int(bytes[index])] }
            }
            return seen
        }
        guard kinds & notADigit == 0 else { return nil }
        return kinds & uppercaseDigit != 0
    }

    /// Each byte's kind as a digit of an ID (``check(_:)``): 0 for `0`–`9` and `a`–`f`,
    /// ``uppercaseDigit`` for `A`–`F`, ``notADigit`` for any other byte.
    private static let digitKinds: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): 0
        case UInt8(ascii: "A")...UInt8(ascii: "F"): uppercaseDigit
        default: notADigit
        }
    }
    private static let uppercaseDigit: UInt8 = 1
    private static let notADigit: UInt8 = 2

    public var uuid: UUID { UUID(uuidString: description)! }

    public static func < (lhs: GlobalID, rhs: GlobalID) -> Bool { lhs.description < rhs.description }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = GlobalID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(text)")
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// An object's identity together with its entity's name.
public struct ObjectID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let entity: String
    public let id: GlobalID

    public init(entity: String, id: GlobalID) {
        self.entity = entity
        self.id = id
    }

    public var description: String { "\(entity)/\(id)" }

    /// The ID alone: it names the object on every peer (a store refuses one ID under two
    /// entities), and hashing the entity's name too added a second string's hash to every
    /// lookup in an import's sets of changed objects. Equal objects still have equal hashes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entity, lhs.id.description) < (rhs.entity, rhs.id.description)
    }
}

// MARK: - Database

extension GlobalID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> GlobalID? {
        String.fromDatabaseValue(dbValue).flatMap(GlobalID.init)
    }
}

/// Read straight from the statement's text (no `DatabaseValue` in between): a listing decodes
/// five IDs a row, and going through `DatabaseValue` was a sixth of `item ls --json`. The
/// bytes are checked where SQLite holds them and copied once; making a `String` of them first
/// (which checks them as UTF-8) and then checking the string was a tenth of `item ls`.
extension GlobalID: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let bytes = Self.textBytes(sqliteStatement, index), let hasUppercase = Self.check(bytes) else {
            return nil
        }
        if hasUppercase {
            description = String(decoding: bytes, as: UTF8.self).lowercased()
        } else {
            description = String(unsafeUninitializedCapacity: 36) { text in
                _ = text.initialize(from: bytes)
                return 36
            }
        }
    }

    /// Appends the ID in the statement's column `index` to `output` as ``description`` holds
    /// it (36 bytes, lowercase), without making a string; `false`, appending nothing, when the
    /// column holds no ID.
    package static func appendText(_ statement: SQLiteStatement, _ index: CInt, to output: inout [UInt8]) -> Bool {
        guard let bytes = textBytes(statement, index), let hasUppercase = check(bytes) else { return false }
        if hasUppercase {
            output.append(
                contentsOf: bytes.lazy.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") ? $0 + 0x20 : $0 })
        } else {
            output.append(contentsOf: bytes)
        }
        return true
    }

    /// The column's value as text, where SQLite holds it (valid until the statement moves on);
    /// `nil` for `NULL`. Numbers read as their text, as GRDB's `String` reads them.
    package static func textBytes(_ statement: SQLiteStatement, _ index: CInt) -> UnsafeBufferPointer<UInt8>? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))
    }
}
