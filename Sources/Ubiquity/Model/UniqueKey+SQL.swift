import Foundation
import GRDB
import GRDBSQLite

/// `ubiquity_unique_key(text)` in SQL: ``UniqueKey/normalize(_:)``, registered on every
/// connection of a store; the index of unique keys and deduplication call it for every row.
///
/// It is registered through SQLite's C API rather than as a GRDB `DatabaseFunction`: ASCII text
/// is read in place and its key written from a buffer on the stack, where GRDB's wrapper made an
/// array of arguments, a string of the text, another of the key and a copy of it for every call.
/// The keys are the same as through GRDB's wrapper (a key an older build wrote into an index must
/// be the key this build computes): text is read up to its first NUL, with ill-formed UTF-8
/// repaired; a blob is read whole, and has a key only when it is UTF-8; other values have none.
extension UniqueKey {
    /// The SQL function's name.
    public static let sqlName = "ubiquity_unique_key"

    static func register(on db: Database) throws {
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, sqlName, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let value = arguments?[0] else { return sqlite3_result_null(context) }
                let type = sqlite3_value_type(value)
                guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return sqlite3_result_null(context) }
                let bytes: UnsafeBufferPointer<UInt8>
                if type == SQLITE_TEXT, let text = sqlite3_value_text(value) {
                    bytes = UnsafeBufferPointer(start: text, count: strlen(text))  // to the first NUL, as GRDB read it
                } else if type == SQLITE_BLOB, let blob = sqlite3_value_blob(value) {
                    bytes = UnsafeBufferPointer(
                        start: blob.assumingMemoryBound(to: UInt8.self), count: Int(sqlite3_value_bytes(value)))
                } else {
                    bytes = UnsafeBufferPointer(start: nil, count: 0)
                }
                let count = bytes.count
                let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, count)) { key -> Bool in
                    guard let length = UniqueKey.asciiKey(of: bytes, into: key) else { return false }
                    sqlite3_result_text(
                        context, key.baseAddress, Int32(length), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    return true
                }
                if done { return }
                // Not ASCII: as a string. Text as GRDB read it (ill-formed UTF-8 repaired), a blob
                // only when it is UTF-8.
                let decoded =
                    type == SQLITE_TEXT
                    ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
                guard let text = decoded else { return sqlite3_result_null(context) }
                var key = UniqueKey.normalize(text)
                key.withUTF8 {
                    sqlite3_result_text(
                        context, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(sqlName)")
        }
    }
}
