import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Files in the cloud folder written by a buggy or hostile peer: each is refused whole, holds
/// back only its own peer, is shown, and never stops anyone else.
@Suite("Hostile files in the cloud folder")
struct HostileCloudFileTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    /// A log of peer `x` (device "evil"), written by hand and sealed with a correct checksum.
    func writeLog(
        _ seq: Int64, peer: String = "peer-x", inserting values: [String: PropertyValue],
        entity: String = "Note", id: GlobalID = GlobalID(UUID()), clockPeer: String? = nil,
        wall: Int64 = 1_800_000_000_000,
        into layout: CloudLayout
    ) throws {
        let record = TransactionRecord(
            transactionID: GlobalID(UUID()), timestamp: Date(timeIntervalSince1970: 1_800_000_000), author: "evil",
            inserted: [ObjectChange(object: ObjectID(entity: entity, id: id), values: values)], updated: [],
            deleted: [],
            clock: HLC(wall: wall, counter: 0, peer: clockPeer ?? peer))
        let data = try LogFile.encode(record, layout: layout, peer: peer, device: "evil", seq: seq)
        try layout.makeFolder(layout.peerFolder(peer))
        try data.write(to: layout.logURL(peer: peer, seq: seq))
    }

    static let hostileValues: [(String, [String: PropertyValue], String)] = [
        ("a null title", ["title": .null], "Note"),
        ("an empty title", ["title": .string("")], "Note"),
        ("a blank title", ["title": .string("   ")], "Note"),
        ("an invisible title", ["title": .string("\u{FEFF}\u{200B}")], "Note"),
        ("a control character", ["title": .string("Milk\u{7}")], "Note"),
        ("a bidi override", ["title": .string("Milk\u{202E}kliM")], "Note"),
        ("a 100k-character title", ["title": .string(String(repeating: "x", count: 100_000))], "Note"),
        ("a negative count", ["count": .integer(-1)], "Note"),
        ("a huge count", ["count": .integer(Int64.max)], "Note"),
        ("a null count", ["count": .null], "Note"),
        ("a date of 1e300", ["modified": .date(Date(timeIntervalSince1970: 1e300))], "Note"),
        ("a date before 1970", ["modified": .date(Date(timeIntervalSince1970: -86400))], "Note"),
        ("a string in a number", ["count": .string("12")], "Note"),
        ("an unknown property", ["colour": .string("red")], "Note"),
        ("an unknown entity", ["name": .string("x")], "Spaceship"),
        ("a string in a reference", ["folder": .string("not an id")], "Note"),
    ]

    @Test(arguments: hostileValues.map(\.0))
    func aLogBreakingTheRulesIsRefusedWholeAndHoldsOnlyItsPeer(_ kind: String) throws {
        let (_, values, entity) = Self.hostileValues.first { $0.0 == kind }!
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let layout = a.sync.layout
        // Log 1 of x is fine, log 2 breaks the rules, log 3 is fine again.
        try writeLog(1, inserting: ["title": .string("first from x")], into: layout)
        try writeLog(2, inserting: values, entity: entity, into: layout)
        try writeLog(3, inserting: ["title": .string("after the bad one")], into: layout)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("from a")]) }
        try a.sync.exportPending()

        let report = try b.sync.importPending()
        #expect(report.refused.map(\.seq) == [2])
        #expect(report.refused.first?.peer == "peer-x")
        #expect(report.refused.first?.device == "evil")
        #expect(try b.sync.watermark(of: "peer-x") == 1, "held at the bad log")
        #expect(try b.sync.watermark(of: "peer-a") == 1, "every other peer goes on")
        #expect(try b.titles() == ["first from x", "from a"])
        #expect(try b.sync.refusedFiles().map(\.seq) == [2])

        // Later syncs still report it, without halting, and a's next change still arrives.
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("more from a")]) }
        try a.sync.exportPending()
        let again = try b.sync.importPending()
        #expect(again.refused.map(\.seq) == [2])
        #expect(try b.titles() == ["first from x", "from a", "more from a"])
        // Releasing it lets x's later logs in; the bad one is never applied.
        try b.sync.release(peer: "peer-x", seq: 2)
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try b.titles() == ["after the bad one", "first from x", "from a", "more from a"])
        #expect(try b.sync.refusedFiles().isEmpty)
    }

    @Test func aReferenceToAnObjectOfAnotherEntityIsRefused() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let note = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("a note")]) }
        try a.sync.exportPending()
        // x links a new note's folder to a's note, and then re-inserts a's note as a Folder.
        try writeLog(1, inserting: ["title": .string("linked"), "folder": .reference(note)], into: a.sync.layout)
        try writeLog(
            1, peer: "peer-y", inserting: ["name": .string("not a folder")], entity: "Folder", id: note,
            into: a.sync.layout)
        let report = try b.sync.importPending()
        #expect(Set(report.refused.map(\.peer)) == ["peer-x", "peer-y"])
        #expect(report.refused.allSatisfy { $0.reason.contains("is a Note") || $0.reason.contains("points at a Note") })
        #expect(try b.titles() == ["a note"])
        #expect(try b.ids(of: "folder").isEmpty)
    }

    @Test func aClockReadingThatCannotBeStoredOrBefore1970IsRefused() throws {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        // Stored clocks are `name=reading;…`: a peer name with those characters would garble them.
        try writeLog(1, inserting: ["title": .string("garbling clock")], clockPeer: "x;title=0", into: b.sync.layout)
        try writeLog(1, peer: "peer-y", inserting: ["title": .string("before 1970")], wall: -5, into: b.sync.layout)
        let report = try b.sync.importPending()
        #expect(report.refused.count == 2)
        #expect(try b.titles().isEmpty)
        // The store's clock did not move: its next save is still readable and exports.
        _ = try b.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("mine")]) }
        #expect(try b.sync.exportPending() == 1)
    }

    @Test func theWriterOfARefusedLogRepublishesSoNothingIsLost() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        for title in ["one", "two", "three"] {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        try a.sync.exportPending()
        // Log 2 arrives with content b refuses (as if an older build had written it).
        let url = a.sync.layout.logURL(peer: "peer-a", seq: 2)
        let log = try LogFile.read(at: url, expecting: a.sync.layout, peer: "peer-a", seq: 2)
        var change = log.record.inserted[0]
        change.values["count"] = .integer(-7)
        let bad = TransactionRecord(
            transactionID: log.record.transactionID, timestamp: log.record.timestamp, author: "old build",
            inserted: [change], updated: [], deleted: [], clock: log.record.clock)
        try LogFile.encode(bad, layout: a.sync.layout, peer: "peer-a", device: "a", seq: 2).write(to: url)

        #expect(try b.sync.importPending().refused.map(\.seq) == [2])
        #expect(try b.titles() == ["one"])
        // a learns of it from b's notice and publishes a baseline covering log 2 …
        _ = try a.sync.importPending()
        #expect(a.sync.layout.baselineFiles().contains { $0.peer == "peer-a" })
        // … which b merges: it goes on past the refused log and holds all of a's data.
        _ = try b.sync.importPending()
        #expect(try b.sync.refusedFiles().isEmpty)
        #expect(try b.contents() == (try a.contents()))
    }

    // MARK: - Baselines

    /// Syncthing copies a file under a temporary name (`.syncthing.NAME.tmp`, `~syncthing~NAME.tmp`
    /// on some systems) and renames it when whole: a half-copied baseline under such a name is
    /// no baseline, neither merged nor refused.
    @Test func syncthingsTemporaryCopiesOfABaselineAreIgnored() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("in the baseline")]) }
        let url = try #require(try a.sync.writeBaseline())
        try a.removeOwnLogs()
        let whole = try Data(contentsOf: url)
        let folder = url.deletingLastPathComponent()
        let next = url.lastPathComponent.replacingOccurrences(of: "0000000001", with: "0000000002")
        for name in [".syncthing.\(next).tmp", "~syncthing~\(next).tmp"] {
            try whole.prefix(whole.count / 2).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent().appendingPathComponent(".stfolder"),
            withIntermediateDirectories: true)

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 1 && report.refused.isEmpty, "\(report.refused)")
        #expect(try c.titles() == ["in the baseline"])
        #expect(try c.sync.refusedFiles().isEmpty)
    }

    @Test func aHalfCopiedBaselineIsReadAgainOnceWhole() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("in the baseline")]) }
        let url = try #require(try a.sync.writeBaseline())
        // Its logs are gone (pruned): only the baseline holds the data.
        try a.removeOwnLogs()
        let whole = try Data(contentsOf: url)
        try whole.prefix(whole.count / 2).write(to: url)

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let first = try c.sync.importPending()
        #expect(first.loadedBaselines == 0)
        #expect(first.refused.map(\.kind) == [.baseline])
        #expect(try c.titles().isEmpty)
        // Unchanged, it is not read again; completed, it is merged.
        #expect(try c.sync.importPending().refused.map(\.kind) == [.baseline])
        try whole.write(to: url)
        #expect(try c.sync.importPending().loadedBaselines == 1)
        #expect(try c.titles() == ["in the baseline"])
        #expect(try c.sync.refusedFiles().isEmpty)
        #expect(try c.sync.importPending().loadedBaselines == 0, "merged once")
    }

    @Test func aBaselineBreakingTheRulesIsRefusedWhole() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("fine")]) }
        let url = try #require(try a.sync.writeBaseline())
        let (_, payload) = try LogFile.open(
            try Data(contentsOf: url), magic: Baseline.magic, expecting: a.sync.layout, peer: "peer-a", seq: 1)
        var baseline = try #require(Baseline(compactData: payload))
        baseline.objects[0].values["title"] = .string("")
        let sealed = try LogFile.seal(
            try baseline.compactData(), magic: Baseline.magic, layout: a.sync.layout,
            peer: "peer-a", device: "a", seq: 1)
        try sealed.write(to: url)
        try a.removeOwnLogs()

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.refused.first?.reason.contains("title: it is blank") == true)
        #expect(try c.titles().isEmpty)
        #expect(try c.sync.watermark(of: "peer-a") == 0, "a refused baseline moves no watermark")
    }

    // MARK: - Markers, sizes, leftovers

    @Test func badEpochMarkersStartNothingOver() throws {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let layout = b.sync.layout
        try layout.makeFolder(layout.epochsFolder)
        // This build's names (`<n>-<peer>.gdepoch`) and earlier builds' (`<n>.gdepoch`) alike.
        let earlierName = { (epoch: Int) in layout.epochsFolder.appendingPathComponent("\(epoch).gdepoch") }
        try Data().write(to: layout.markerURL(epoch: 7, peer: "peer-x"))
        try FileManager.default.createDirectory(at: earlierName(8), withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: layout.markerURL(epoch: 9, peer: "peer-x"))
        try Data(
            "GDEPOCH 1\n{\"device\":\"x\",\"epoch\":4,\"peer\":\"peer-x\",\"started\":\"2026-01-01T00:00:00.000Z\"}\n0\n"
                .utf8
        )
        .write(to: earlierName(10))
        // A marker that checks out, under another peer's name.
        let body = "{\"device\":\"x\",\"epoch\":11,\"peer\":\"peer-x\",\"started\":\"2026-01-01T00:00:00.000Z\"}"
        try Data("GDEPOCH 1\n\(body)\n\(String(CRC32.checksum(Data(body.utf8)), radix: 16))\n".utf8)
            .write(to: layout.markerURL(epoch: 11, peer: "peer-y"))
        #expect(layout.currentEpoch() == 1)
        #expect(!layout.isSuperseded)
        let report = try b.sync.importPending()
        #expect(report.refused.filter { $0.kind == .marker }.map(\.seq).sorted() == [7, 8, 9, 10, 11])
        // A marker that checks out still starts the next epoch.
        #expect(try layout.startNextEpoch(peer: "peer-b", device: "b") == 2)
        #expect(layout.isSuperseded)
    }

    @Test func aHugeFileIsRefusedAfterItsHeaderAndNotReadAgain() throws {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let layout = b.sync.layout
        try layout.makeFolder(layout.peerFolder("peer-x"))
        // 3 GB without a header, and one whose header claims 200 MB: sparse files, so the test
        // itself stays cheap; reading either whole would take seconds and gigabytes.
        for (seq, header) in [
            (Int64(1), ""),
            (
                2,
                "GDLOG 1\n{\"crc32\":\"0\",\"device\":\"evil\",\"epoch\":1,\"length\":200000000,\"modelVersion\":2,\"peer\":\"peer-y\",\"seq\":1,\"storeName\":\"Test\"}\n"
            ),
        ] {
            let peer = seq == 1 ? "peer-x" : "peer-y"
            try layout.makeFolder(layout.peerFolder(peer))
            let url = layout.logURL(peer: peer, seq: 1)
            try Data(header.utf8).write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: seq == 1 ? 3_000_000_000 : UInt64(header.utf8.count) + 200_000_000)
            try handle.close()
        }
        let report = try b.sync.importPending()
        let reasons = report.refused.map(\.reason).sorted()
        #expect(reasons.count == 2)
        #expect(reasons.contains("not a transaction log"))
        #expect(reasons.contains { $0.contains("200000000 bytes, more than") })
        #expect(try b.sync.importPending().refused.count == 2, "remembered, still reported")
    }

    @Test func leftoversOfACrashInOwnFoldersAreRemoved() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("one")]) }
        try a.sync.exportPending()
        let own = a.sync.layout.peerFolder("peer-a")
        let crashed = own.appendingPathComponent(".0000000002.gdlog.tmp")
        let deadWriter = own.appendingPathComponent(".0000000002.gdlog.999999999.\(UUID().uuidString).tmp")
        let liveWriter = own.appendingPathComponent(".0000000002.gdlog.\(getpid()).\(UUID().uuidString).tmp")
        let othersTemp = a.sync.layout.peerFolder("peer-z").appendingPathComponent(".0000000001.gdlog.tmp")
        try a.sync.layout.makeFolder(othersTemp.deletingLastPathComponent())
        for url in [crashed, deadWriter, liveWriter, othersTemp] { try Data("half".utf8).write(to: url) }

        try a.restart()
        _ = try a.sync.importPending()
        #expect(!FileManager.default.fileExists(atPath: crashed.path))
        #expect(!FileManager.default.fileExists(atPath: deadWriter.path))
        #expect(
            FileManager.default.fileExists(atPath: liveWriter.path),
            "a write under way in another process of this device")
        #expect(FileManager.default.fileExists(atPath: othersTemp.path), "another peer's folder is never touched")
    }

    @Test func theKeyValueStoreReadsOnlySaneFiles() throws {
        let values = KeyValueStore(
            cloud: cloud.url, account: "default", peer: "peer-a", format: "notes-kv", clock: clock)
        try values.set("first", forKey: "SEEDED_DATA")
        let own = values.folder.appendingPathComponent("peer-a")
        // In this peer's own folder: the largest number (the next write would overflow), a
        // reading from year 300000, a huge file and a link.
        let future = HLC(wall: 9_999_999_999_999_999, counter: 0, peer: "peer-a").description
        try Data("{\"format\":\"notes-kv\",\"number\":9223372036854775807,\"peer\":\"peer-a\",\"writes\":{}}".utf8)
            .write(to: own.appendingPathComponent("9223372036854775807.gdkv"))
        try Data(
            "{\"format\":\"notes-kv\",\"number\":5,\"peer\":\"peer-a\",\"writes\":{\"SEEDED_DATA\":{\"value\":\"forged\",\"clock\":\"\(future)\"}}}"
                .utf8
        )
        .write(to: own.appendingPathComponent("5.gdkv"))
        try Data(count: 1 << 20).write(to: own.appendingPathComponent("6.gdkv"))
        try FileManager.default.createSymbolicLink(
            atPath: own.appendingPathComponent("7.gdkv").path, withDestinationPath: "/etc/hostname")
        #expect(values.value(forKey: "SEEDED_DATA") == "first")
        try values.set("second", forKey: "SEEDED_DATA")
        #expect(values.value(forKey: "SEEDED_DATA") == "second")
    }

    @Test func aLinkOrAFolderNamedLikeALogIsRefused() throws {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let layout = b.sync.layout
        try layout.makeFolder(layout.peerFolder("peer-x"))
        try layout.makeFolder(layout.peerFolder("peer-y"))
        try FileManager.default.createSymbolicLink(
            atPath: layout.logURL(peer: "peer-x", seq: 1).path, withDestinationPath: "/etc/hostname")
        try FileManager.default.createDirectory(
            at: layout.logURL(peer: "peer-y", seq: 1), withIntermediateDirectories: true)
        let report = try b.sync.importPending()
        #expect(
            report.refused.map(\.reason).sorted() == [
                "it is a folder or device, not a file", "it is a symbolic link, not a file",
            ])
    }
}

extension TestPeer {
    /// Removes every log this peer wrote, as pruning does once a baseline covers them: what
    /// the peer holds then reaches others only through its baselines.
    func removeOwnLogs() throws {
        let layout = sync.layout
        let peer = "peer-\(name)"
        for seq in layout.sequenceNumbers(of: peer) {
            try FileManager.default.removeItem(at: layout.logURL(peer: peer, seq: seq))
        }
    }

    /// The notes' titles, sorted.
    func titles() throws -> [String] {
        try store.read { db in try String.fetchAll(db, sql: "SELECT title FROM note ORDER BY title") }
    }
}
