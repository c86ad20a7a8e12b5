import Foundation
import GRDB
import GRDBSQLite

extension Database {
    /// Runs SQL through GRDB's statement cache: compiled (and authorized) once per connection
    /// rather than on every call. The engine's hot paths (every save, every imported object)
    /// use it; compiling each time was a tenth of a save's cost.
    func executeCached(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// ``executeCached(_:_:)`` with `values` bound to SQLite one by one, in order: the rows of
    /// saves and imports. A `StatementArguments` of a row's values (boxed each, then copied into
    /// an array of `DatabaseValue`) cost more than SQLite's insert of the row.
    ///
    /// GRDB still executes the statement (its observers hear of the change); only the binding
    /// is done here.
    ///
    /// Public for the benchmark, whose floors bind their rows as the engine binds its own: a
    /// floor bound through `StatementArguments` paid what the engine no longer pays.
    ///
    /// - Throws: a ``DatabaseError`` when the statement does not take as many values.
    public func executeCached(_ sql: String, binding values: [DatabaseValue]) throws {
        try execute(cachedStatement(sql: sql), binding: values)
    }

    /// ``executeCached(_:binding:)`` of a statement prepared already (an import's insert, kept
    /// from one row to the next: ``InsertStatement``).
    func execute(_ statement: Statement, binding values: [DatabaseValue]) throws {
        let handle = statement.sqliteStatement
        guard sqlite3_bind_parameter_count(handle) == values.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of values: \(values.count) for \(sqlite3_bind_parameter_count(handle))",
                sql: statement.sql)
        }
        // Resets the statement and clears its bindings; with no arguments, GRDB takes the
        // values bound next as the statement's.
        statement.setUncheckedArguments(StatementArguments())
        for (index, value) in zip(CInt(1)..., values) {
            let code = Self.bind(value, to: handle, at: index)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: statement.sql)
            }
        }
        try statement.execute()
    }

    /// ``executeCached(_:binding:)`` with `blob` as the statement's last parameter, handed to
    /// SQLite where it lies (`SQLITE_STATIC`) rather than copied: an imported log's bytes, half a
    /// megabyte for 2,500 items, go into the history this way. SQLite reads them only while the
    /// statement runs, inside this call; the binding is cleared before it returns, so the
    /// statement never holds the address afterwards.
    func executeCached(_ sql: String, binding values: [DatabaseValue], borrowing blob: Data) throws {
        let statement = try cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        let count = values.count + 1
        guard sqlite3_bind_parameter_count(handle) == count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of values: \(count) for \(sqlite3_bind_parameter_count(handle))", sql: sql)
        }
        statement.setUncheckedArguments(StatementArguments())
        defer { sqlite3_clear_bindings(handle) }
        for (index, value) in zip(CInt(1)..., values) {
            let code = Self.bind(value, to: handle, at: index)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: sql) }
        }
        try blob.withUnsafeBytes { bytes in
            // No destructor is `SQLITE_STATIC`. Empty bytes go through GRDB, stored as it stores them.
            let code =
                bytes.isEmpty
                ? blob.bind(to: handle, at: CInt(count))
                : sqlite3_bind_blob64(handle, CInt(count), bytes.baseAddress, UInt64(bytes.count), nil)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: sql) }
            try statement.execute()
        }
    }

    /// Binds `value` as GRDB would, text from its UTF-8 with its length: GRDB hands SQLite a
    /// C string of it (a copy made into a new array, whose length SQLite then measures), half
    /// the cost of binding an ID. Blobs go through GRDB.
    private static func bind(_ value: DatabaseValue, to handle: SQLiteStatement, at index: CInt) -> CInt {
        switch value.storage {
        case .null: sqlite3_bind_null(handle, index)
        case .int64(let integer): sqlite3_bind_int64(handle, index, integer)
        case .double(let double): sqlite3_bind_double(handle, index, double)
        case .string(var text):
            text.withUTF8 { bytes in
                // An empty buffer may have no address, which SQLite would take for NULL. The
                // 64-bit length: a text too long for SQLite is an error (`SQLITE_TOOBIG`), not a trap.
                bytes.isEmpty
                    ? sqlite3_bind_text(handle, index, "", 0, transient)
                    : sqlite3_bind_text64(
                        handle, index, bytes.baseAddress, UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
            }
        case .blob: value.bind(to: handle, at: index)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies what is bound before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// The first column of the first row (`nil` for none, or for NULL), through the statement
    /// cache (see `Database.executeCached`), read from SQLite directly: GRDB's cursor (made,
    /// iterated, its element type's metadata looked up) cost more than the probe of a key it ran,
    /// and every save reads the device's clock this way.
    static func fetchCached(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> Self? {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        // Reset at once: a statement left on a row keeps its read open.
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : Self(sqliteStatement: handle, index: 0)
        case SQLITE_DONE:
            return nil
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: sql, arguments: arguments)
        }
    }
}
