import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A save takes the device's clock from the save before it, in memory, only while nothing else
/// committed to the store since (``RememberedSave``). The wall clock stands still in these tests:
/// readings differ by their counters alone, so a save that started from an old clock would
/// repeat a reading another save made.
@Suite("The device's clock remembered between saves")
struct RememberedSaveTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    static func reading(of store: ObjectStore) throws -> HLC {
        try #require(try store.outbox().last?.clock)
    }

    /// Saves back to back read the clock from the store once: the copy is what the next one uses.
    @Test func savesBackToBackReadTheStoreOnce() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let before = a.store.rememberedSave.storeReads
        var readings: [HLC] = []
        for index in 0..<10 {
            try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Note \(index)")]) }
            readings.append(try Self.reading(of: a.store))
            #expect(
                try a.store.read { db in try PropertyClocks.current(db) } == readings.last,
                "the copy is what the store holds")
        }
        #expect(a.store.rememberedSave.storeReads - before == 1)
        #expect(readings == readings.sorted() && Set(readings).count == 10)
    }

    /// Another process of the same device (here another store on the same file: another
    /// connection) saving between two saves of this one: the second comes after it.
    @Test func aSaveThroughAnotherConnectionIsNotMissed() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let other = try ObjectStore(
            path: a.store.path, model: TestModel.definition, version: 2, peer: "peer-a",
            clock: clock, ids: SequentialIDs(prefix: "cccccccc"))
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let first = try Self.reading(of: a.store)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Eggs")]) }
        let second = try Self.reading(of: a.store)
        #expect(second > first)
        try other.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Tea")]) }
        let between = try Self.reading(of: other)
        #expect(between > second)
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Bread")]) }
        let third = try Self.reading(of: a.store)
        #expect(third > between, "the other connection's save moved the clock: \(third) after \(between)")
        let readings = try a.store.outbox().compactMap(\.clock)
        #expect(Set(readings).count == readings.count, "no reading made twice: \(readings)")
    }

    /// A write outside the save API between two saves (an import moving the clock: another
    /// commit of the same connection), and a save whose body failed: the next save comes after
    /// the clock that write left.
    @Test func writesAndFailedSavesBetweenSavesAreNotMissed() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let (_, seen) = try a.saveAndSeeAReadingAnHourLater(counter: 3)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try a.store.save(author: "t") { context in
                _ = try context.insert("Note", values: ["title": .string("Eggs")])
                throw Refused()
            }
        }
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Bread")]) }
        #expect(try Self.reading(of: a.store) > seen)
    }
}
