import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import Ubiquity

/// The engine's hot statements bind their values and read their answers through SQLite
/// directly (`Database+Cached.swift`); GRDB still compiles, caches and executes them.
@Suite("Statements bound and read directly")
struct CachedStatementTests {
    let queue: DatabaseQueue

    init() throws {
        queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, i INTEGER, d REAL, s TEXT, b BLOB)")
        }
    }

    static let insert = "INSERT INTO t (id, i, d, s, b) VALUES (?, ?, ?, ?, ?)"

    @Test func everyKindOfValueIsWrittenAsBoundAndNothingCarriesOverToTheNextRun() throws {
        try queue.write { db in
            try db.executeCached(
                Self.insert,
                binding: [
                    "a".databaseValue, (-7).databaseValue, 2.5.databaseValue,
                    "Crème brûlée 🍮".databaseValue, Data([0, 1, 255]).databaseValue,
                ])
            // The same cached statement again, with nulls where the first run had values.
            try db.executeCached(Self.insert, binding: ["b".databaseValue, .null, .null, .null, .null])
        }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t ORDER BY id") }
        #expect(rows.count == 2)
        let first = (rows[0]["i"] as Int64?, rows[0]["d"] as Double?, rows[0]["s"] as String?, rows[0]["b"] as Data?)
        #expect(first.0 == -7 && first.1 == 2.5 && first.2 == "Crème brûlée 🍮" && first.3 == Data([0, 1, 255]))
        let second = ["i", "d", "s", "b"].map { rows[1][$0] as DatabaseValue }
        #expect(second == [.null, .null, .null, .null])
    }

    /// Peers on builds before and after this binding must store the same bytes for the same
    /// values: compared with what GRDB's own arguments store, edge cases included.
    @Test func storesWhatGRDBsOwnArgumentsStore() throws {
        let cases: [[DatabaseValue]] = [
            [Data().databaseValue, "".databaseValue, Double.nan.databaseValue, Int64.min.databaseValue],
            [Data([0]).databaseValue, "a\u{0}b".databaseValue, (-0.0).databaseValue, Int64.max.databaseValue],
            [DatabaseValue.null, "\u{1F34E}\u{301}".databaseValue, Double.infinity.databaseValue, 0.databaseValue],
        ]
        let sql = "INSERT INTO t (id, b, s, d, i) VALUES (?, ?, ?, ?, ?)"
        try queue.write { db in
            for (index, values) in cases.enumerated() {
                try db.execute(sql: sql, arguments: StatementArguments(["grdb\(index)".databaseValue] + values))
                try db.executeCached(sql, binding: ["ours\(index)".databaseValue] + values)
            }
        }
        let stored = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, typeof(b) || quote(b) || typeof(s) || quote(s) || typeof(d) || quote(d) || typeof(i) || quote(i) AS v
                    FROM t
                    """)
        }
        let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0["id"] as String, $0["v"] as String) })
        #expect(byID.count == 2 * cases.count)
        for index in cases.indices {
            #expect(byID["ours\(index)"] == byID["grdb\(index)"], "case \(index)")
        }
    }

    /// A blob bound where it lies (an imported log's bytes into the history) is stored as GRDB's
    /// arguments store it, whatever its length.
    @Test func aBorrowedBlobIsStoredAsGRDBStoresIt() throws {
        let blobs = [Data(), Data([0]), Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })]
        let sql = "INSERT INTO t (id, s, b) VALUES (?, ?, ?)"
        try queue.write { db in
            for (index, blob) in blobs.enumerated() {
                try db.execute(sql: sql, arguments: ["grdb\(index)", "x", blob])
                try db.executeCached(sql, binding: ["ours\(index)".databaseValue, "x".databaseValue], borrowing: blob)
            }
            #expect(throws: DatabaseError.self) {
                try db.executeCached(sql, binding: ["short".databaseValue], borrowing: Data([1]))
            }
        }
        let stored = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, typeof(b) || quote(b) || quote(s) AS v FROM t")
        }
        let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0["id"] as String, $0["v"] as String) })
        #expect(byID.count == 2 * blobs.count)
        for index in blobs.indices {
            #expect(byID["ours\(index)"] == byID["grdb\(index)"], "case \(index)")
        }
        let big = try queue.read { db in try Data.fetchOne(db, sql: "SELECT b FROM t WHERE id = 'ours2'") }
        #expect(big == blobs[2])
    }

    @Test func tooFewOrTooManyValuesAreRefusedAndWriteNothing() throws {
        try queue.write { db in
            #expect(throws: DatabaseError.self) { try db.executeCached(Self.insert, binding: ["a".databaseValue]) }
            #expect(throws: DatabaseError.self) {
                try db.executeCached(Self.insert, binding: ["a".databaseValue, .null, .null, .null, .null, .null])
            }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func aConstraintStillFailsAsGRDBReportsIt() throws {
        try queue.write { db in
            try db.executeCached(Self.insert, binding: ["a".databaseValue, .null, .null, .null, .null])
            let error = #expect(throws: DatabaseError.self) {
                try db.executeCached(Self.insert, binding: ["a".databaseValue, .null, .null, .null, .null])
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            // The same SQL again after the failure: it runs (GRDB dropped the failed statement
            // from its cache; a new one is compiled).
            try db.executeCached(Self.insert, binding: ["b".databaseValue, .null, .null, .null, .null])
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 2)
    }

    @Test func aReadAnswersTheFirstValueOrNilForNoRowOrNullAndLeavesNothingOpen() throws {
        try queue.write { db in
            try db.executeCached(
                Self.insert, binding: ["a".databaseValue, 1.databaseValue, .null, "x".databaseValue, .null])
            try db.executeCached(
                Self.insert, binding: ["b".databaseValue, 2.databaseValue, .null, "y".databaseValue, .null])
        }
        try queue.inDatabase { (db: Database) throws in
            let many = "SELECT s FROM t ORDER BY id"
            #expect(try String.fetchCached(db, many) == "x")
            // Reset after the first row: a statement left on a row would keep its read open.
            #expect(sqlite3_stmt_busy(try db.cachedStatement(sql: many).sqliteStatement) == 0)
            #expect(try String.fetchCached(db, "SELECT s FROM t WHERE id = ?", ["b"]) == "y")
            #expect(try String.fetchCached(db, "SELECT s FROM t WHERE id = ?", ["none"]) == nil)
            #expect(try Double.fetchCached(db, "SELECT d FROM t WHERE id = ?", ["a"]) == nil)
            #expect(try Int64.fetchCached(db, "SELECT i FROM t WHERE id = ?", ["b"]) == 2)
        }
    }

    @Test func aReadThatFailsThrowsWithItsSQL() throws {
        try queue.inDatabase { (db: Database) throws in
            // Fails when stepped, not when compiled.
            let sql = "SELECT abs(-9223372036854775807 - 1)"
            let error = #expect(throws: DatabaseError.self) { try Int64.fetchCached(db, sql) }
            #expect(error?.sql == sql)
            #expect(error?.message?.contains("integer overflow") == true)
            #expect(try Int64.fetchCached(db, "SELECT abs(-5)") == 5)
            // A cached statement whose step failed is still usable, with other arguments.
            let argument = "SELECT abs(?)"
            #expect(throws: DatabaseError.self) { try Int64.fetchCached(db, argument, [Int64.min]) }
            #expect(try Int64.fetchCached(db, argument, [-5]) == 5)
            #expect(throws: DatabaseError.self) { try Int64.fetchCached(db, argument, [Int64.min]) }
        }
    }
}
