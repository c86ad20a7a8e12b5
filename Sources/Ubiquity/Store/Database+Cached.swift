import GRDB

extension Database {
    /// Runs SQL through GRDB's statement cache: compiled (and authorized) once per connection
    /// rather than on every call. The engine's hot paths (every save, every imported object)
    /// use it; compiling each time was a tenth of a save's cost.
    func executeCached(_ sql: String, _ arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// One value through the statement cache (see `Database.executeCached`).
    static func fetchCached(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
