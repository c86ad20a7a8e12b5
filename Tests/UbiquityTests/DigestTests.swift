import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Peers publish digests of their data and prove they agree, or name what differs.
@Suite("Digests: peers prove they agree")
struct DigestTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    func peers(_ names: [String]) throws -> [TestPeer] {
        try names.map {
            try TestPeer(name: $0, prefix: String(repeating: $0, count: 8), cloud: cloud.url, clock: clock)
        }
    }

    /// Syncs every peer twice: everyone then holds every log, and published at that point.
    func syncAll(_ peers: [TestPeer]) throws {
        for _ in 0..<2 { for peer in peers { try peer.sync.sync() } }
    }

    func digest(_ peer: TestPeer) throws -> Digest {
        try #require(peer.sync.publishDigest(force: true).digest)
    }

    @Test func peersThatAppliedTheSameLogsAgree() throws {
        let all = try peers(["a", "b", "c"])
        let (a, b, c) = (all[0], all[1], all[2])
        let note = try a.store.save(author: "t") {
            try $0.insert("Note", values: ["title": .string("Milk"), "count": .integer(2)])
        }
        try b.store.save(author: "t") { _ = try $0.insert("Folder", values: ["name": .string("Home")]) }
        try c.store.save(author: "t") { _ = try $0.insert("Attachment", values: ["bytes": .data(Data([1, 2, 3]))]) }
        try syncAll(all)
        clock.advance(by: 1)
        _ = try b.store.save(author: "t") { try $0.update("Note", id: note, values: ["count": .integer(5)]) }
        try c.store.save(author: "t") { try $0.delete("Note", id: note) }
        try syncAll(all)

        for peer in all {
            let report = try peer.sync.verify()
            #expect(
                report.diverging.isEmpty && report.badFiles.isEmpty && report.notComparable.isEmpty,
                "\(peer.name): \(report)")
            #expect(Set(report.agreeing.map(\.device)) == Set(all.map(\.name)).subtracting([peer.name]), "\(peer.name)")
            #expect(report.logs == 5)
        }
        #expect(try digest(a) == (try digest(b)))
        #expect(try digest(a).buckets.count == 3, "one bucket per peer's ID prefix")
        #expect(try a.sync.lastVerify()?.agreed.sorted() == ["b", "c"])

        // A save not exported yet: nothing to compare on that peer; the others see a new log.
        try a.store.save(author: "t") { _ = try $0.insert("Folder", values: ["name": .string("Work")]) }
        #expect(try a.sync.verify().notComparableHere == "this device has saves not exported yet")
        try a.sync.sync()
        let onB = try b.sync.verify()
        #expect(onB.agreeing.map(\.device) == ["c"])
        #expect(onB.notComparable.map(\.device) == ["a"])
        #expect(onB.notComparable.first?.reason.hasPrefix("different logs applied") == true)
    }

    @Test func publishesOnlyWhenSomethingChangedAndKeepsAFewFiles() throws {
        let all = try peers(["a", "b"])
        let (a, b) = (all[0], all[1])
        func ownDigests() -> [Int64] {
            a.sync.layout.digestNumbers(of: a.store.peer, extension: DigestFiles.digestExtension)
        }
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("One")]) }
        try a.sync.sync()
        #expect(ownDigests() == [1])
        _ = try a.sync.importPending()
        _ = try a.sync.verify()
        #expect(ownDigests() == [1], "nothing changed: nothing written")
        for index in 2...6 {
            try b.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("N\(index)")]) }
            try b.sync.sync()
            try a.sync.sync()
        }
        #expect(ownDigests() == [6, 5, 4], "the newest three of its own")
        #expect(b.sync.layout.digestNumbers(of: b.store.peer, extension: DigestFiles.digestExtension) == [5, 4, 3])
    }

    @Test func aCorruptedRowIsNamedAndARebuildHeals() throws {
        let all = try peers(["a", "b"])
        let (a, b) = (all[0], all[1])
        let milk = try a.store.save(author: "t") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Eggs")]) }
        try syncAll(all)
        #expect(try b.sync.verify().agreeing.map(\.device) == ["a"])

        // Damage behind the engine's back: no save, no clock, no log.
        try b.store.write { db in try db.execute(sql: "UPDATE note SET title = 'X' WHERE id = ?", arguments: [milk]) }
        let onB = try b.sync.verify()
        let bucket = Digest.bucket(of: milk.description)
        #expect(onB.agreeing.isEmpty)
        #expect(onB.diverging.map(\.device) == ["a"])
        #expect(onB.diverging.first?.buckets == [bucket])
        // Before a's detail is there: every object of the bucket on this side.
        #expect(onB.diverging.first?.objects.map(\.kind) == [.inDifferingBucket, .inDifferingBucket])
        #expect(try b.sync.lastVerify()?.diverged == ["a"])

        // b's detail is also a request: a answers it on its next sync, at the same applied logs.
        try a.sync.sync()
        #expect(a.sync.layout.digestNumbers(of: a.store.peer, extension: DigestFiles.detailExtension) == [1])
        #expect(
            try b.sync.verify().diverging.first?.objects == [
                .init(entity: "Note", id: milk.description, label: "X", kind: .differs)
            ])
        // And a, reading b's detail, names exactly the object too.
        let onA = try a.sync.verify()
        #expect(
            onA.diverging.first?.objects == [.init(entity: "Note", id: milk.description, label: "Milk", kind: .differs)]
        )

        // Rebuild b from the cloud folder: the digests agree again.
        try b.store.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: b.directory.file("store.sqlite" + suffix))
        }
        try b.restart()
        _ = try b.sync.importPending()
        #expect(try b.sync.verify().agreeing.map(\.device) == ["a"])
        #expect(try a.sync.verify().agreeing.map(\.device) == ["b"])
        #expect(try a.sync.lastVerify()?.diverged == [])
    }

    @Test func badDigestFilesAreReportedAndStopNothing() throws {
        let all = try peers(["a", "b"])
        let (a, b) = (all[0], all[1])
        try a.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Tea")]) }
        try syncAll(all)
        let layout = a.sync.layout
        func put(_ data: Data, peer: String, number: Int64, ext: String = DigestFiles.digestExtension) throws {
            let url = layout.digestURL(peer: peer, number: number, extension: ext)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try put(Data("GDDIGEST 1\n{not json\n".utf8), peer: "peer-garbage", number: 1)
        try put(Data(repeating: 65, count: DigestFiles.maxSize + 1), peer: "peer-huge", number: 1)
        let whole = try DigestFiles.encode(
            DigestFiles.Published(created: 0, applied: [:], top: String(repeating: "0", count: 64), buckets: [:]),
            magic: DigestFiles.digestMagic, layout: layout, peer: "peer-cut", device: "c", number: 1)
        try put(whole.prefix(whole.count - 10), peer: "peer-cut", number: 1)
        try put(Data("GDDETAIL 1\n{}\n".utf8), peer: "peer-garbage", number: 1, ext: DigestFiles.detailExtension)
        // A well-formed digest whose top hash does not add up.
        let forged = DigestFiles.Published(
            created: 0, applied: ["x": 1], top: String(repeating: "0", count: 64),
            buckets: ["aa": String(repeating: "1", count: 64)])
        try put(
            try DigestFiles.encode(
                forged, magic: DigestFiles.digestMagic, layout: layout, peer: "peer-forged", device: "f", number: 1),
            peer: "peer-forged", number: 1)

        try b.store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Jam")]) }
        try syncAll(all)  // does not throw
        let report = try a.sync.verify()
        #expect(report.agreeing.map(\.device) == ["b"])
        let reasons = report.badFiles.joined(separator: "\n")
        #expect(report.badFiles.count == 4, "\(reasons)")
        #expect(reasons.contains("peer peer-garbage: its header cannot be read"), "\(reasons)")
        #expect(reasons.contains("peer peer-huge: too large (1048577 bytes"), "\(reasons)")
        #expect(reasons.contains("peer peer-cut: truncated"), "\(reasons)")
        #expect(reasons.contains("peer peer-forged: its content cannot be read or does not add up"), "\(reasons)")
        #expect(Set(report.notComparable.map(\.peer)) == ["peer-garbage", "peer-huge", "peer-cut", "peer-forged"])
    }

    @Test func everyPropertyAndItsClockCount() throws {
        let a = try peers(["a"])[0]
        func digest(_ peer: TestPeer) throws -> Digest {
            try peer.store.read { db in try Digest.compute(schema: peer.store.schema, applied: [:], db) }
        }
        let note = try a.store.save(author: "t") {
            try $0.insert(
                "Note", values: ["title": .string("Milk"), "modified": .date(Date(timeIntervalSince1970: 1.5))])
        }
        let before = try digest(a)
        try a.store.write { db in try db.execute(sql: "UPDATE note SET modified = 1.501") }
        let date = try digest(a)
        #expect(date.top != before.top)
        try a.store.write { db in try db.execute(sql: "UPDATE note SET modified = 1.5") }
        #expect(try digest(a).top == before.top, "the same data, the same digest")
        try a.store.write { db in
            try db.execute(
                sql: "UPDATE note SET ubiquity_clocks = replace(ubiquity_clocks, '.000000.', '.000001.') WHERE id = ?",
                arguments: [note])
            #expect(db.changesCount == 1)
        }
        #expect(try digest(a).top != before.top, "a clock reading alone counts")
    }

    /// (How long it takes: `grocery-dude-bench digest`.)
    @Test func aDigestOfTenThousandObjectsIsTheSameEachTime() throws {
        let all = try peers(["a"])
        let a = all[0]
        try a.store.save(author: "bulk") { context in
            for index in 0..<10_000 {
                _ = try context.insert(
                    "Note", values: ["title": .string("Item \(index)"), "count": .integer(Int64(index % 1000))])
            }
        }
        var tops: Set<String> = []
        for _ in 0..<3 {
            let digest = try a.store.read { db in try Digest.compute(schema: a.store.schema, applied: [:], db) }
            tops.insert(digest.top)
            #expect(digest.contents.values.map(\.entries.count).reduce(0, +) == 10_000)
        }
        #expect(tops.count == 1)
    }
}
