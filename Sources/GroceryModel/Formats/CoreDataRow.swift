import Foundation
import GRDB

/// One row of a table of a Core Data store, read as untrusted input.
///
/// Each value is checked to have the type Core Data writes in its column. A value of another
/// type is an ``ArchiveError`` naming the table, the row (its key, `Z_PK`) and the column:
/// `ZITEM row 12, column ZQUANTITY: "abc" is not a number`. NULL, or a column the table does
/// not have, is `nil`. Text must be valid UTF-8: it is checked on SQLite's own bytes, which
/// GRDB's `String` conversion would have repaired.
///
/// The row must come from a cursor (`Row.fetchCursor`), whose rows read SQLite's bytes: use
/// it only while the cursor is on that row.
struct CoreDataRow {
    let table: String
    /// The row's key (`Z_PK`, or `Z_ENT` in `Z_PRIMARYKEY`), which is required.
    private(set) var key: Int64 = 0
    private let row: Row
    /// "row 12", or "row at position 3" while the key is not known to be good.
    private var label: String

    /// - Parameter position: the row's place in the table, 1-based, to name a row whose key is bad.
    /// - Throws: ``ArchiveError`` when the key is missing or not a whole number.
    init(_ row: Row, table: String, key keyColumn: String = "Z_PK", position: Int) throws {
        self.row = row
        self.table = table
        label = "row at position \(position)"
        key = try required(integer(keyColumn), keyColumn)
        label = "row \(key)"
    }

    /// An `INTEGER` column: a whole number.
    func integer(_ column: String) throws -> Int64? {
        switch value(column).storage {
        case .null: return nil
        case .int64(let number): return number
        case .double(let number): throw problem(column, "\(number) is not a whole number")
        case .string(let text): throw problem(column, "\(Self.quoted(text)) is not a number")
        case .blob(let bytes): throw problem(column, "binary data (\(bytes.count) bytes) is not a number")
        }
    }

    /// A `FLOAT` column: a finite number.
    func number(_ column: String) throws -> Double? {
        switch value(column).storage {
        case .null: return nil
        case .int64(let number): return Double(number)
        case .double(let number):
            guard number.isFinite else { throw problem(column, "\(number) is not a finite number") }
            return number
        case .string(let text): throw problem(column, "\(Self.quoted(text)) is not a number")
        case .blob(let bytes): throw problem(column, "binary data (\(bytes.count) bytes) is not a number")
        }
    }

    /// A `TIMESTAMP` column: seconds since 2001, a ``FileDate``.
    func date(_ column: String) throws -> Date? {
        guard let seconds = try number(column) else { return nil }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        guard FileDate.isValid(date) else {
            throw problem(column, "\(seconds) seconds since 2001 is not a date \(FileDate.range)")
        }
        return date
    }

    /// A `VARCHAR` column: valid UTF-8 text.
    func text(_ column: String) throws -> String? {
        switch value(column).storage {
        case .null:
            return nil
        case .string:
            return try row.withUnsafeData(named: column) { bytes in
                let bytes = bytes ?? Data()
                if let text = String(validating: bytes, as: UTF8.self) { return text }
                throw problem(
                    column, "the text is not valid UTF-8 (byte offset \(UTF8Text.invalidOffset(in: bytes) ?? 0))")
            }
        case .int64(let number): throw problem(column, "the number \(number) is not text")
        case .double(let number): throw problem(column, "the number \(number) is not text")
        case .blob(let bytes): throw problem(column, "binary data (\(bytes.count) bytes) is not text")
        }
    }

    /// A `BLOB` column: bytes.
    func blob(_ column: String) throws -> Data? {
        switch value(column).storage {
        case .null: return nil
        case .blob(let bytes): return bytes
        case .string(let text): throw problem(column, "the text \(Self.quoted(text)) is not binary data")
        case .int64(let number): throw problem(column, "the number \(number) is not binary data")
        case .double(let number): throw problem(column, "the number \(number) is not binary data")
        }
    }

    /// `value`, or an error saying that the column is empty.
    func required<Value>(_ value: Value?, _ column: String) throws -> Value {
        guard let value else { throw problem(column, "the value is missing (NULL)") }
        return value
    }

    /// An error about `column` of this row: "ZITEM row 12, column ZQUANTITY: …".
    func problem(_ column: String, _ reason: String) -> ArchiveError {
        .malformed("\(table) \(label), column \(column): \(reason)")
    }

    private func value(_ column: String) -> DatabaseValue {
        row.hasColumn(column) ? row[column] : .null
    }

    /// Text for a message: quoted, and cut short when long.
    private static func quoted(_ text: String) -> String {
        (text.count > 40 ? String(text.prefix(40)) + "…" : text).debugDescription
    }
}
