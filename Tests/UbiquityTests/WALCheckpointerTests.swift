import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// The write-ahead log is moved into the store file in the background (``WALCheckpointer``):
/// it stays about as small as SQLite's automatic checkpoint kept it, no commit waits for it, and
/// closing the store while one is due loses nothing.
@Suite("Checkpoints in the background")
struct WALCheckpointerTests {
    let directory = TemporaryDirectory("checkpoints")

    func openStore() throws -> ObjectStore {
        try ObjectStore(
            path: directory.file("store.sqlite").path, model: TestModel.definition, version: 2, clock: TestClock())
    }

    /// The write-ahead log file's size. The log starts over from the file's start once a
    /// checkpoint moved all of it into the store, and the file is then cut back to the store's
    /// size limit: while nothing checkpoints it, it only grows.
    func walBytes() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: directory.file("store.sqlite-wal").path)[.size] as? Int) ?? 0
    }

    /// Commits of about ten pages each: `count` of them.
    func write(_ store: ObjectStore, commits count: Int, from first: Int = 0) throws {
        let value = String(repeating: "x", count: 40_000)
        for index in first..<(first + count) {
            try store.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO ubiquity_metadata (key, value) VALUES (?, ?)",
                    arguments: ["filler-\(index % 50)", value + String(index)])
            }
        }
    }

    @Test("the log is checkpointed in the background: once it caught up, the next commit starts the log over")
    func logStartsOver() throws {
        let store = try openStore()
        // About 2000 pages (8 MB), back to back: past the threshold, well short of the inline limit
        // (where a commit would checkpoint itself).
        try write(store, commits: 150)
        // A commit starts the log over once a checkpoint moved all of it into the store file:
        // the background one, when it has caught up.
        // Without a checkpoint the log would keep every page written (SQLite's own is off).
        var commits = 0
        try Poll.until("the log cut back to its limit; it holds \(walBytes()) bytes after \(commits) more commits") {
            try store.setMetadata("tick", String(commits))
            commits += 1
            return walBytes() <= ObjectStore.walSizeLimit
        }
    }

    @Test("a store closed (and reopened) while checkpoints are due keeps every commit")
    func closingWhileDue() throws {
        for round in 0..<3 {
            let store = try openStore()
            try write(store, commits: 150, from: round * 150)
            try store.close()
            // Closing checkpoints the whole log into the store file and removes the log.
            #expect(walBytes() == 0)
        }
        let store = try openStore()
        let values = try store.read { db in
            try String.fetchAll(db, sql: "SELECT value FROM ubiquity_metadata WHERE key LIKE 'filler-%' ORDER BY key")
        }
        // Each key's last value: the commits of the last round, 400 to 449.
        #expect(values.compactMap { Int($0.dropFirst(40_000)) }.sorted() == Array(400..<450))
    }

    @Test("commits back to back ask for a checkpoint each time the log grew by the threshold, not at every commit")
    func oneCheckpointPerThresholdOfGrowth() throws {
        let path = directory.file("plain.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        let checkpointer = WALCheckpointer(path: path, gate: UsageGate(path: "plain"))
        queue.inDatabase { db in checkpointer.install(on: db) }
        defer { checkpointer.close() }
        // A reader's snapshot keeps the log from starting over: it only grows, about 11 pages a commit.
        let reader = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE filler (value TEXT)") }
        let value = String(repeating: "y", count: 40_000)
        try reader.read { _ in
            for _ in 0..<150 {
                try queue.write { db in try db.execute(sql: "INSERT INTO filler VALUES (?)", arguments: [value]) }
            }
        }
        checkpointer.waitUntilIdle()
        // About 1,650 pages: 6 checkpoints of 250 pages; asked at every commit past the
        // threshold, it was over 120.
        #expect((1...8).contains(checkpointer.asked), "\(checkpointer.asked) checkpoints asked for")
    }

    @Test("the hook of a checkpointer that is gone does nothing")
    func hookOutlivesCheckpointer() throws {
        let queue = try DatabaseQueue(path: directory.file("plain.sqlite").path)
        try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        do {
            let checkpointer = WALCheckpointer(
                path: directory.file("plain.sqlite").path, gate: UsageGate(path: "plain"))
            queue.inDatabase { db in checkpointer.install(on: db) }
        }
        let value = String(repeating: "y", count: 40_000)
        try queue.write { db in try db.execute(sql: "CREATE TABLE filler (value TEXT)") }
        for _ in 0..<150 {
            try queue.write { db in try db.execute(sql: "INSERT INTO filler VALUES (?)", arguments: [value]) }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM filler") } == 150)
    }
}
