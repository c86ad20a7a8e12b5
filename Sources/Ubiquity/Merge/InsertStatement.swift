import GRDB

/// The insert statement of the last entity a ``Merger`` wrote a new object of, kept for the next
/// object of the same entity: a log's new objects are mostly of one entity.
///
/// Found again through GRDB's statement cache at every row, the statement's SQL (some 200 bytes,
/// its key there) was hashed each time, about 1,200 instructions a row of an import. The
/// statement is the one that cache holds: made once a connection either way.
final class InsertStatement {
    private var sql: String?
    private var statement: Statement?

    /// The prepared ``EntityDescription/insertSQL`` of `entity`.
    func statement(for entity: EntityDescription, _ db: Database) throws -> Statement {
        // The same entity's SQL is the same string: compared without reading its bytes.
        if let statement, sql == entity.insertSQL { return statement }
        let made = try db.cachedStatement(sql: entity.insertSQL)
        sql = entity.insertSQL
        statement = made
        return made
    }
}
