import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A full disk reads as one: "the disk that holds … is full", never SQLite's "disk I/O error",
/// and nothing of the transaction it stopped is written.
@Suite("A full disk")
struct DiskFullTests {
    static let store = "/data/devices/a/local/GroceryDude.sqlite"

    @Test func sqliteSayingTheDiskIsFullIsADiskFull() {
        let error = DiskFull.translated(
            DatabaseError(resultCode: .SQLITE_FULL), storePath: Self.store, freeBytes: { _ in 1 << 40 })
        #expect(error as? StoreError == .diskFull(folder: "/data/devices/a/local"))
        #expect("\(error)".contains("the disk that holds /data/devices/a/local is full: nothing was changed"))
    }

    @Test func anIOErrorIsADiskFullOnlyWhenTheDiskHasNearlyNoSpaceLeft() {
        let ioError = DatabaseError(resultCode: .SQLITE_IOERR_SHMSIZE)
        let full = DiskFull.translated(ioError, storePath: Self.store, freeBytes: { _ in 12 * 1024 })
        #expect(full as? StoreError == .diskFull(folder: "/data/devices/a/local"))
        // A disk with room that fails is a failing disk, said as SQLite says it.
        let roomy = DiskFull.translated(ioError, storePath: Self.store, freeBytes: { _ in 50 << 30 })
        #expect((roomy as? DatabaseError)?.extendedResultCode == .SQLITE_IOERR_SHMSIZE)
        let unknown = DiskFull.translated(ioError, storePath: Self.store, freeBytes: { _ in nil })
        #expect(unknown is DatabaseError)
    }

    @Test func otherErrorsAreLeftAsTheyAre() {
        let constraint = DiskFull.translated(
            DatabaseError(resultCode: .SQLITE_CONSTRAINT), storePath: Self.store, freeBytes: { _ in 0 })
        #expect((constraint as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        let other = DiskFull.translated(StoreError.unknownEntity("X"), storePath: Self.store, freeBytes: { _ in 0 })
        #expect(other as? StoreError == .unknownEntity("X"))
    }

    /// On a real disk of 4 MiB (tmpfs; needs root): a save that finds no room is refused whole and
    /// says so; once there is room again, saves go on and nothing of the refused one is there.
    @Test func aSaveOnAFullDiskIsRefusedWholeAndTheStoreGoesOnOnceThereIsRoom() throws {
        let disk = try #require(SmallDisk(bytes: 4 << 20), Comment(rawValue: SmallDisk.needsRoot))
        let path = disk.url.appendingPathComponent("store.sqlite").path
        let store = try ObjectStore(path: path, model: TestModel.definition, version: 2)
        try store.save(author: "test") { context in _ = try context.insert("Note", values: ["title": .string("Before")])
        }
        store.checkpoint()

        try disk.fill(leaving: 16 * 1024)
        #expect {
            try store.save(author: "test") { context in
                for index in 1...50 { _ = try context.insert("Note", values: ["title": .string("Refused \(index)")]) }
            }
        } throws: { error in
            error as? StoreError == .diskFull(folder: disk.path)
        }

        try disk.empty()
        try store.save(author: "test") { context in _ = try context.insert("Note", values: ["title": .string("After")])
        }
        let titles = try store.read { db in try String.fetchAll(db, sql: "SELECT title FROM note ORDER BY title") }
        #expect(titles == ["After", "Before"])
        #expect(try store.outbox().count == 2, "no record of the refused save")
        #expect(try store.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        try store.close()
    }
}
