import Foundation
import GRDB
import TextAndFiles

/// SQLite database files as files: recognising one, and copying one safely while other
/// processes use it.
public enum SQLiteFile {
    /// Whether the file at `url` starts as an SQLite database does ("SQLite format 3\0").
    public static func isDatabase(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }

    /// Copies the database at `source` to `target` (which must not exist) with SQLite's backup
    /// API: a consistent copy of the last commit, write-ahead log included, even while other
    /// processes write to it. The copy is one file, with nothing left in a write-ahead log: it
    /// opens on its own anywhere.
    public static func backup(_ source: URL, to target: URL) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(10)
        let from = try DatabaseQueue(path: source.path, configuration: readOnly)
        defer { try? from.close() }
        let to = try DatabaseQueue(path: target.path)
        do {
            try from.backup(to: to)
            try to.close()
        } catch {
            try? to.close()
            try? FileManager.default.removeItem(at: target)
            throw error
        }
    }

    /// A store's metadata value for `key`, read only without opening the store as a store (no
    /// migration, no lock): for a device that rebuilds a damaged file of its own from what its
    /// stores remember. `nil` when the file, the table or the key is not there.
    public static func metadata(_ key: String, in url: URL) -> String? {
        readOnly(url) { db in
            try String.fetchOne(db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", arguments: [key])
        } ?? nil
    }

    /// How many saves wait in the outbox of the store at `url`, read only without opening it as
    /// a store; `nil` when it cannot be read.
    public static func waitingSaves(in url: URL) -> Int? {
        readOnly(url) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.outbox)") } ?? nil
    }

    /// How many rows `table` has in the database at `url`, read only; `nil` when it cannot be read.
    public static func rowCount(of table: String, in url: URL) -> Int? {
        readOnly(url) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") }
            ?? nil
    }

    /// `body` on a read-only connection to the database at `url`; `nil` when it is missing or
    /// cannot be read.
    private static func readOnly<T>(_ url: URL, _ body: (Database) throws -> T) -> T? {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(2)
        guard FileManager.default.fileExists(atPath: url.path),
            let queue = try? DatabaseQueue(path: url.path, configuration: readOnly)
        else { return nil }
        defer { try? queue.close() }
        return try? queue.read(body)
    }

    /// Whether SQLite finds the database at `url` sound (`PRAGMA quick_check`), read only.
    public static func problem(in url: URL) -> String? {
        var readOnly = Configuration()
        readOnly.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: readOnly)
            defer { try? queue.close() }
            let result = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            return result == ["ok"] ? nil : result.prefix(3).joined(separator: "; ")
        } catch {
            return ErrorText.reason(error)
        }
    }
}
