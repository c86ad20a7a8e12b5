import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Clocks that are wrong by years: readings still order edits alike everywhere, but a clock far
/// ahead no longer drags the others, an edit made after seeing a value wins over it, and a
/// clock before 1970 or after 9999 still writes what peers accept.
@Suite("Clock discipline")
struct ClockDisciplineTests {
    let cloud = TemporaryDirectory("cloud")
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let tenYears: TimeInterval = 3650 * 86_400

    func note(_ id: GlobalID, on peer: TestPeer) throws -> (title: String, count: Int64)? {
        try peer.store.read { db in
            try Row.fetchOne(db, sql: "SELECT title, count FROM note WHERE id = ?", arguments: [id.description])
                .map { ($0["title"], $0["count"]) }
        }
    }

    func storeClock(of peer: TestPeer) throws -> HLC? {
        try peer.store.read { db in try PropertyClocks.current(db) }
    }

    func lastReading(of peer: TestPeer) throws -> HLC {
        try #require(try peer.store.outbox().last?.clock)
    }

    // MARK: - Readings

    @Test func aReadingIsAlwaysOneThatPeersAccept() throws {
        let before1970 = try #require(HLC.next(after: nil, now: Date(timeIntervalSince1970: -3600), peer: "p"))
        #expect(before1970.wall == 0)
        let after9999 = try #require(HLC.next(after: nil, now: Date(timeIntervalSince1970: 1e15), peer: "p"))
        #expect(after9999.wall == HLC.maximumWall)
        let full = HLC(wall: 5, counter: .max, peer: "q")
        #expect(
            HLC.next(after: full, now: Date(timeIntervalSince1970: 0), peer: "p") == HLC(wall: 6, counter: 0, peer: "p")
        )
        #expect(
            HLC.next(after: HLC(wall: HLC.maximumWall, counter: .max, peer: "q"), now: Date(), peer: "p") == nil,
            "nothing comes after the last reading there can be")
        #expect(LocalClock.readable(Date(timeIntervalSince1970: -1)) == Date(timeIntervalSince1970: 0))
        #expect(
            ValueRule.dateRange.contains(LocalClock.readable(Date(timeIntervalSince1970: 1e15)).timeIntervalSince1970))
    }

    // MARK: - A clock ten years fast

    @Test func aClockTenYearsFastNeitherDragsOthersNorBeatsEditsMadeAfterSeeingIt() throws {
        let honestClock = TestClock(Self.start)
        let futureClock = TestClock(Self.start + Self.tenYears)
        let future = try TestPeer(name: "future", prefix: "ffffffff", cloud: cloud.url, clock: futureClock)
        let honest = try TestPeer(name: "honest", prefix: "aaaaaaaa", cloud: cloud.url, clock: honestClock)
        let milk = try future.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try future.sync.sync()
        try honest.sync.sync()

        // The honest device's clock stays at its wall time: a save elsewhere is stamped now.
        #expect(
            try storeClock(of: honest).map { $0.wall } ?? 0 <= Int64(Self.start.timeIntervalSince1970 * 1000)
                + 86_400_000)
        _ = try honest.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Bread")]) }
        #expect(try lastReading(of: honest).wall == Int64(Self.start.timeIntervalSince1970 * 1000))

        // Its edit of what it saw is stamped after what it saw, and wins on both.
        honestClock.advance(by: 60)
        _ = try honest.store.save(author: "edit") { try $0.update("Note", id: milk, values: ["count": .integer(2)]) }
        let edit = try lastReading(of: honest)
        #expect(edit.wall >= Int64((Self.start + Self.tenYears).timeIntervalSince1970 * 1000))
        #expect(
            try storeClock(of: honest).map { $0.wall } ?? 0 < Int64((Self.start + 86_400).timeIntervalSince1970 * 1000),
            "the edit's reading does not move the device's clock")
        try honest.sync.sync()
        try future.sync.sync()
        #expect(try note(milk, on: future)?.count == 2)
        #expect(try note(milk, on: honest)?.count == 2)

        // The next save elsewhere is back at its wall time.
        _ = try honest.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Tea")]) }
        #expect(try lastReading(of: honest).wall == Int64((Self.start + 60).timeIntervalSince1970 * 1000))
        try honest.sync.sync()
        try future.sync.sync()
        #expect(try honest.contents() == future.contents())
    }

    @Test func anEditWinsOverTheInsertOfWhatItEditedEvenWhenTheInsertArrivesAfterIt() throws {
        // Three replicas of the cloud folder: the fast device's insert reaches `later` only after
        // an edit that followed it.
        let folders = (0..<3).map { _ in TemporaryDirectory("replica") }
        let future = try TestPeer(
            name: "future", prefix: "ffffffff", cloud: folders[0].url, clock: TestClock(Self.start + Self.tenYears))
        let seen = try TestPeer(name: "seen", prefix: "aaaaaaaa", cloud: folders[1].url, clock: TestClock(Self.start))
        let later = try TestPeer(name: "later", prefix: "bbbbbbbb", cloud: folders[2].url, clock: TestClock(Self.start))
        func deliver(_ from: TestPeer, to: TestPeer) throws {
            let target = to.sync.layout.peerFolder(from.store.peer)
            try? FileManager.default.removeItem(at: target)
            try to.sync.layout.makeFolder(to.sync.layout.logsFolder)
            try FileManager.default.copyItem(at: from.sync.layout.peerFolder(from.store.peer), to: target)
        }
        let milk = try future.store.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("Milk"), "count": .integer(1)])
        }
        try future.sync.exportPending()
        try deliver(future, to: seen)
        _ = try seen.sync.importPending()
        // An edit that keeps the date, as the deduplicator's do: it carries the count alone.
        try seen.store.save(author: "edit") { context in
            let modified = try #require(try context.values(of: "Note", id: milk)?["modified"])
            try context.update("Note", id: milk, values: ["count": .integer(2), "modified": modified])
        }
        try seen.sync.exportPending()
        try deliver(seen, to: later)
        _ = try later.sync.importPending()
        // `later` holds the note with its count only; it renames it, then the insert arrives.
        _ = try later.store.save(author: "edit") {
            try $0.update("Note", id: milk, values: ["title": .string("Oat Milk")])
        }
        try later.sync.exportPending()
        for from in [future, seen, later] {
            for to in [future, seen, later] where to !== from { try deliver(from, to: to) }
        }
        for peer in [future, seen, later] { _ = try peer.sync.importPending() }
        for peer in [future, seen, later] {
            #expect(try note(milk, on: peer)?.title == "Oat Milk", "\(peer.name)")
            #expect(try note(milk, on: peer)?.count == 2, "\(peer.name)")
        }
    }

    @Test func concurrentEditsWithAFastClockConvergeAndThatDeviceIsFlaggedUntilItIsSetRight() throws {
        let honestClock = TestClock(Self.start)
        let futureClock = TestClock(Self.start + Self.tenYears)
        let future = try TestPeer(name: "future", prefix: "ffffffff", cloud: cloud.url, clock: futureClock)
        let honest = try TestPeer(name: "honest", prefix: "aaaaaaaa", cloud: cloud.url, clock: honestClock)
        let milk = try honest.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try honest.sync.sync()
        try future.sync.sync()

        // Both edit the count before seeing the other's edit: the later reading wins everywhere.
        _ = try future.store.save(author: "edit") { try $0.update("Note", id: milk, values: ["count": .integer(7)]) }
        _ = try honest.store.save(author: "edit") { try $0.update("Note", id: milk, values: ["count": .integer(3)]) }
        try future.sync.sync()
        try honest.sync.sync()
        try future.sync.sync()
        #expect(try note(milk, on: honest)?.count == 7)
        #expect(try honest.contents() == future.contents())

        let flagged = try honest.sync.clocksAhead()
        #expect(flagged.map(\.device) == ["future"])
        #expect(flagged.first.map { ClockAhead.about($0.ahead) } == "about 10 years")
        #expect(
            flagged.first?.summary.contains("its clock was about 10 years ahead of this device's (log 1 said 2037-")
                == true,
            "\(flagged.first?.summary ?? "")")
        #expect(
            try future.sync.clocksAhead().isEmpty, "a clock behind is nothing to flag: a late file is no sign of it")

        // Its clock set right, its next log clears the flag.
        futureClock.advance(by: -Self.tenYears)
        _ = try future.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Eggs")]) }
        try future.sync.sync()
        try honest.sync.sync()
        #expect(try honest.sync.clocksAhead().isEmpty)
    }

    @Test func aDeviceWhoseOwnClockWasFastWritesAtItsWallTimeOnceItIsSetRight() throws {
        let clock = TestClock(Self.start + Self.tenYears)
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let first = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        clock.advance(by: -Self.tenYears)
        _ = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Bread")]) }
        #expect(try lastReading(of: peer).wall == Int64(Self.start.timeIntervalSince1970 * 1000))
        // What it stamped while wrong still orders its own later edits.
        _ = try peer.store.save(author: "edit") { try $0.update("Note", id: first, values: ["count": .integer(1)]) }
        #expect(try lastReading(of: peer).wall == Int64((Self.start + Self.tenYears).timeIntervalSince1970 * 1000))
    }

    // MARK: - Before 1970, after 9999

    @Test func aClockBefore1970OrAfter9999SavesWhatPeersAccept() throws {
        let pastClock = TestClock(Date(timeIntervalSince1970: -3600))
        let farClock = TestClock(Date(timeIntervalSince1970: 400_000_000_000))  // year 14645
        let past = try TestPeer(name: "past", prefix: "11111111", cloud: cloud.url, clock: pastClock)
        let far = try TestPeer(name: "far", prefix: "22222222", cloud: cloud.url, clock: farClock)
        let reader = try TestPeer(name: "reader", prefix: "33333333", cloud: cloud.url, clock: TestClock(Self.start))
        _ = try past.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Eggs")]) }
        _ = try far.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Ham")]) }
        let dates = try past.store.read { db in try Double.fetchAll(db, sql: "SELECT modified FROM note") }
        #expect(dates == [0], "dated 1970-01-01, the earliest date peers accept")
        try past.sync.sync()
        try far.sync.sync()
        let report = try reader.sync.importPending()
        #expect(report.refused.isEmpty, "\(report.refused.map(\.summary))")
        #expect(try reader.titles() == ["Eggs", "Ham"])
    }

    // MARK: - Counters of seven digits and more

    @Test func aWaitingPhotoKeepsTheLaterReadingWhateverItsCountersLength() throws {
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: TestClock(Self.start))
        let layout = peer.sync.layout
        let attachment = ObjectID(entity: "Attachment", id: GlobalID(UUID()))
        // Two peers set the same photo, neither file has arrived; x's reading is the later one,
        // though its text sorts first ("…1000000." before "…999999.").
        for (writer, counter, hash) in [
            ("peer-x", Int32(1_000_000), String(repeating: "a", count: 64)),
            ("peer-y", Int32(999_999), String(repeating: "b", count: 64)),
        ] {
            let record = TransactionRecord(
                transactionID: GlobalID(UUID()), timestamp: Self.start, author: "photo",
                inserted: [ObjectChange(object: attachment, values: ["bytes": .blob(hash)])], updated: [], deleted: [],
                clock: HLC(wall: 1_800_000_000_000, counter: counter, peer: writer))
            try layout.makeFolder(layout.peerFolder(writer))
            try LogFile.encode(record, layout: layout, peer: writer, device: writer, seq: 1).write(
                to: layout.logURL(peer: writer, seq: 1))
        }
        #expect(try peer.sync.importPending().refused.isEmpty)
        let waiting = try peer.store.read { db in try String.fetchAll(db, sql: "SELECT hash FROM ubiquity_pending_blob")
        }
        #expect(waiting == [String(repeating: "a", count: 64)])
    }

    // MARK: - The last reading there can be

    @Test func aPropertyHoldingTheLastReadingThereCanBeIsNotChangedAndNothingTraps() throws {
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: TestClock(Self.start))
        let id = GlobalID(UUID())
        let record = TransactionRecord(
            transactionID: GlobalID(UUID()), timestamp: Self.start, author: "evil",
            inserted: [ObjectChange(object: ObjectID(entity: "Note", id: id), values: ["title": .string("Stuck")])],
            updated: [], deleted: [],
            clock: HLC(wall: HLC.maximumWall, counter: .max, peer: "peer-x"))
        let layout = peer.sync.layout
        try layout.makeFolder(layout.peerFolder("peer-x"))
        try LogFile.encode(record, layout: layout, peer: "peer-x", device: "evil", seq: 1).write(
            to: layout.logURL(peer: "peer-x", seq: 1))
        #expect(try peer.sync.importPending().refused.isEmpty)

        #expect(throws: StoreError.self) {
            try peer.store.save(author: "edit") { try $0.update("Note", id: id, values: ["title": .string("Changed")]) }
        }
        #expect(try peer.titles() == ["Stuck"])
        _ = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Fine")]) }
        #expect(
            try lastReading(of: peer).wall == Int64(Self.start.timeIntervalSince1970 * 1000),
            "the last reading there can be does not move the device's clock")
    }
}
