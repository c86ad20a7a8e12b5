import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A command's store is one connection (`StoreConnections.single`); the app's a pool. Both on one
/// file at once, as a command beside the running app.
@Suite("One connection for a command, a pool for the app")
struct StoreConnectionsTests {
    let folder = TemporaryDirectory("connections")
    var path: String { folder.file("store.sqlite").path }

    func open(_ connections: StoreConnections) throws -> ObjectStore {
        try ObjectStore(path: path, model: TestModel.definition, version: 2, connections: connections)
    }

    func addNote(_ title: String, to store: ObjectStore) throws {
        try store.save(author: "test") { context in _ = try context.insert("Note", values: ["title": .string(title)]) }
    }

    func titles(_ store: ObjectStore) throws -> [String] {
        try store.read { db in try String.fetchAll(db, sql: "SELECT title FROM note ORDER BY title") }
    }

    /// What opening a store writes, seen from outside: SQLite's counter of the schema's changes.
    func schemaVersion() throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? -1 }
    }

    /// Both ways of holding a store sync each commit before it returns (FULL, 2): "saved" means
    /// on disk, whichever process saved.
    @Test(arguments: [StoreConnections.single, .pooled])
    func aStoreIsInWALModeAndEveryCommitIsDurable(_ connections: StoreConnections) throws {
        let store = try open(connections)
        let journal = try store.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        let synchronous = try store.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(journal == "wal")
        #expect(synchronous == 2, "FULL: a commit is synced before it returns")
        try store.close()
    }

    @Test func openingWithOneConnectionWritesNothing() throws {
        try open(.pooled).close()
        let before = try schemaVersion()
        for _ in 1...3 {
            let store = try open(.single)
            #expect(try titles(store).isEmpty)
            try store.close()
        }
        #expect(try schemaVersion() == before, "no table made and dropped to open the store")
    }

    @Test func aCommandAndTheAppOnOneFileSeeEachOthersSaves() throws {
        let app = try open(.pooled)
        let command = try open(.single)
        try addNote("From the command", to: command)
        try addNote("From the app", to: app)
        #expect(try titles(app) == ["From the app", "From the command"])
        #expect(try titles(command) == ["From the app", "From the command"])
        #expect(try command.outbox().count == 2)
        try command.close()
        try app.close()
    }

    @Test func aReadRunsOutsideAnyTransactionAsCommittedAndInsideAWriteAsTheWriteLeftIt() throws {
        let store = try open(.single)
        try addNote("Committed", to: store)
        let seen = try store.write { db in
            try db.execute(sql: "DELETE FROM note")
            // A read made inside the write, on the same connection: no deadlock, no trap.
            return try titles(store)
        }
        #expect(seen.isEmpty)
        #expect(try titles(store).isEmpty)
        #expect(throws: (any Error).self, "a read does not write") {
            try store.read { db in try db.execute(sql: "DELETE FROM note") }
        }
        try store.close()
    }
}
