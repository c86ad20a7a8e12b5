import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// The device's clock is carried by the last outbox row when a save made it, and by the metadata
/// once the exporter takes that row out (`ubiquity-v6`): a save writes no metadata row.
@Suite("The device's clock in the outbox")
struct OutboxCarriesClockTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    static func metadataClock(_ store: ObjectStore) throws -> String? {
        try store.read { db in try String.fetchOne(db, sql: "SELECT value FROM ubiquity_metadata WHERE key = 'hlc'") }
    }

    static func rowClocks(_ store: ObjectStore) throws -> [String?] {
        try store.read { db in try Optional<String>.fetchAll(db, sql: "SELECT clock FROM ubiquity_outbox ORDER BY seq")
        }
    }

    static func current(_ store: ObjectStore) throws -> HLC? {
        try store.read { db in try PropertyClocks.current(db) }
    }

    static func reading(of store: ObjectStore) throws -> HLC {
        try #require(try store.outbox().last?.clock)
    }

    @Test func aSaveLeavesTheMetadataAsItWasAndItsRowCarriesTheClock() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let before = try Self.metadataClock(a.store)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let first = try Self.reading(of: a.store)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Eggs")]) }
        let second = try Self.reading(of: a.store)
        #expect(second > first, "the same millisecond: the counter moves on")
        #expect(try Self.metadataClock(a.store) == before)
        #expect(try Self.rowClocks(a.store) == [first.description, second.description])
        #expect(try Self.current(a.store) == second)
    }

    @Test func exportingEveryRowMovesTheClockIntoTheMetadataAndItNeverGoesBack() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        for title in ["Milk", "Eggs", "Bread"] {
            try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string(title)]) }
        }
        let last = try Self.reading(of: a.store)
        #expect(try a.sync.exportPending() == 3)
        #expect(try Self.rowClocks(a.store).isEmpty)
        #expect(try Self.metadataClock(a.store) == last.description)
        #expect(try Self.current(a.store) == last)
        try a.restart()
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Tea")]) }
        #expect(try Self.reading(of: a.store) > last, "the clock stopped, the reading still comes after")
    }

    /// An import's later reading moves the metadata's clock, as of the last row: the row, once
    /// saved, is never changed, and the clock it carries is the older one.
    @Test func aReadingSeenAfterASaveMovesTheMetadataPastTheRow() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        // A peer's reading an hour ahead: trusted, so it moves the clock.
        let (saved, seen) = try a.saveAndSeeAReadingAnHourLater(counter: 7)
        let moved = HLC(wall: seen.wall, counter: seen.counter, peer: "peer-a")
        #expect(try Self.current(a.store) == moved)
        #expect(try Self.rowClocks(a.store) == [saved.description])
        #expect(try Self.metadataClock(a.store) == moved.description)
        // Exported, the row's older clock does not replace the metadata's.
        #expect(try a.sync.exportPending() == 1)
        #expect(try Self.current(a.store) == moved)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Eggs")]) }
        #expect(try Self.reading(of: a.store) > seen)
        #expect(try Self.current(a.store) == Self.reading(of: a.store), "a later save's row carries the clock again")
    }

    /// The row's clock comes before its payload: SQLite reads a row's columns in order, and a
    /// large save's payload spans thousands of pages.
    @Test func theClockIsReadWithoutThePayload() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let columns = try a.store.read { db in try db.columns(in: "ubiquity_outbox").map(\.name) }
        let clock = try #require(columns.firstIndex(of: "clock"))
        let payload = try #require(columns.firstIndex(of: "payload"))
        #expect(clock < payload, "\(columns)")
    }

    /// A save of shipped data leaves the device's clock where it was: its row carries it on.
    @Test func aShippedSaveCarriesTheClockOnUnmoved() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let saved = try Self.reading(of: a.store)
        try a.store.saveShipped(author: "shipped", reading: HLC(wall: 1, counter: 0, peer: "shipped")) {
            _ = try $0.insert("Folder", values: ["name": .string("Home")])
        }
        #expect(try Self.rowClocks(a.store) == [saved.description, saved.description])
        #expect(try Self.current(a.store) == saved)
    }

    /// Rows saved before `ubiquity-v6` carry no clock: the metadata's, which those saves wrote, holds.
    @Test func rowsWithoutAClockLeaveItToTheMetadata() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let saved = try Self.reading(of: a.store)
        let older = HLC(wall: saved.wall + 5, counter: 0, peer: "peer-a")
        try a.store.write { db in
            try db.execute(sql: "UPDATE ubiquity_outbox SET clock = NULL")
            try db.execute(
                sql: "INSERT INTO ubiquity_metadata (key, value) VALUES ('hlc', ?)", arguments: [older.description])
        }
        #expect(try Self.current(a.store) == older)
        try a.store.write { db in
            try LocalClock.observe(
                HLC(wall: older.wall + 1, counter: 0, peer: "peer-b"), now: clock.now(), peer: "peer-a", db)
        }
        #expect(
            try Self.metadataClock(a.store) == HLC(wall: older.wall + 1, counter: 0, peer: "peer-a").description,
            "a row without a clock is not given one")
        #expect(try Self.rowClocks(a.store) == [nil])
    }
}
