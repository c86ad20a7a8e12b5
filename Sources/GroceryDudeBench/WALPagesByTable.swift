import Foundation
import GRDB
import Ubiquity

/// What the commits in a write-ahead log wrote, table by table: the log's frames read commit by
/// commit, each page put down to its table through SQLite's `dbstat` (an index counts toward its
/// table; page 1, which holds the file's header and size, is `sqlite_schema`'s). It says where a
/// save's pages go: which of them the engine adds to the row's own.
enum WALPagesByTable {
    struct Count {
        /// Commits found in the log (frames since its last restart).
        var commits = 0
        /// Pages a commit, on average, by table name.
        var pages: [String: Double] = [:]

        func pages(of table: String) -> Double { commits == 0 ? .nan : pages[table, default: 0] }
    }

    /// Reads the log beside `store`'s file. Frames are taken up to the first one of another
    /// generation (its salts differ from the header's: left from before the log restarted).
    /// Pages the store no longer uses count as "free".
    ///
    /// - Throws: when the SQLite linked has no `dbstat` (it is an option of SQLite's build).
    static func count(of store: ObjectStore) throws -> Count {
        let log = try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))
        guard log.count >= 32 else { return Count() }
        func word(_ offset: Int) -> UInt32 {
            log[log.startIndex + offset..<log.startIndex + offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let pageSize = Int(word(8))
        let salts = (word(16), word(20))
        var framesOfCommits: [[Int]] = []
        var frames: [Int] = []
        var offset = 32
        while pageSize > 0, offset + 24 + pageSize <= log.count, (word(offset + 8), word(offset + 12)) == salts {
            frames.append(Int(word(offset)))
            if word(offset + 4) != 0 {  // the commit's last frame carries the database's size
                framesOfCommits.append(frames)
                frames = []
            }
            offset += 24 + pageSize
        }
        let owner = try store.read { db in
            var tableOf: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name FROM sqlite_master") {
                tableOf[row[0]] = row[1]
            }
            var owner: [Int: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, pageno FROM dbstat") {
                let name: String = row[0]
                owner[row[1]] = tableOf[name] ?? name
            }
            return owner
        }
        var count = Count(commits: framesOfCommits.count)
        for frames in framesOfCommits {
            // A page written twice in one commit is one page of it.
            for page in Set(frames) { count.pages[owner[page] ?? "free", default: 0] += 1 }
        }
        for table in count.pages.keys { count.pages[table]! /= Double(max(1, count.commits)) }
        return count
    }
}
