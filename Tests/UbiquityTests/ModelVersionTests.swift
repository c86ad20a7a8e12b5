import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

@Suite("Model versions and migrations")
struct ModelVersionTests {
    let directory = TemporaryDirectory("versions")
    var path: String { directory.file("store.sqlite").path }

    @Test func anOlderStoreIsMigratedWithItsDataKept() throws {
        let old = try ObjectStore(path: path, model: TestModel.definition, version: 1)
        #expect(old.isNew)
        let id = try old.save(author: "v1") { try $0.insert("Note", values: ["title": .string("Kept")]) }

        let new = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(!new.isNew)
        let values = try new.save(author: "read") { try $0.values(of: "Note", id: id) }
        #expect(values?["title"] == .string("Kept"))
        #expect(values?["pinned"] == .bool(false))
    }

    @Test func aNewerStoreIsRefusedByAnOlderApp() throws {
        _ = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        #expect(throws: StoreError.newerModelVersion(store: 2, app: 1, path: path)) {
            _ = try ObjectStore(path: path, model: TestModel.definition, version: 1)
        }
    }

    /// A later engine migration (`ubiquity-v6` for a build before it) at the same model
    /// version: refused, and said to be a newer engine format rather than "2, newer than 2".
    @Test func aStoreWithAnEngineMigrationThisBuildDoesNotKnowIsRefusedAsNewer() throws {
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        try store.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('ubiquity-v99')")
        }
        try store.close()
        let error = StoreError.newerModelVersion(store: 2, app: 2, path: path)
        #expect(throws: error) {
            _ = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        }
        #expect(error.description.contains("newer engine format"))
        #expect(
            StoreError.newerModelVersion(store: 2, app: 1, path: path).description.contains(
                "newer than this app's version 1"))
    }

    /// An identifier read to its last byte: one that is a known migration's up to a NUL is
    /// not that migration, and the store is refused as newer, as GRDB's own reading would.
    @Test func aMigrationIdentifierWithANulInsideIsNotTheOneBeforeIt() throws {
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        try store.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'model-v2'")
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('model-v2' || char(0) || 'later')")
        }
        try store.close()
        #expect(throws: StoreError.self) {
            _ = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefused() throws {
        try Data("this is not sqlite, just text that is long enough to be a header".utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notAStore(path: path, reason: "the file is not an SQLite database")) {
            _ = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        }
    }

    @Test func anUnknownVersionIsRefused() {
        #expect(throws: StoreError.unknownModelVersion(3)) {
            _ = try ObjectStore(path: path, model: TestModel.definition, version: 3)
        }
    }
}
