import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Baselines in the compact format (`GDBASE 2`): names and readings in tables, read back exactly;
/// the first format's files still merged; a hostile or later-format file refused whole.
@Suite("Compact baselines")
struct CompactBaselineTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    static func id(_ n: Int) -> GlobalID { GlobalID("00000000-0000-4000-8000-" + String(n).leftPadded(to: 12))! }

    /// Peers are named by UUIDs, as the app names them.
    static let peers = ["0f8e2b1c-5d3a-4e7f-9a61-2c4b8d0e6f13", "7a9c4e21-8b3d-4f65-a0c2-e1d7b9f34a58"]

    /// `count` items saved in rounds of 50 (a reading shared by a round, as a save gives one),
    /// with a tombstone per ten items, some merged into another.
    static func items(_ count: Int) -> Baseline {
        var objects: [Baseline.Object] = []
        var tombstones: [Baseline.Tombstone] = []
        for n in 0..<count {
            let reading = HLC(wall: 1_800_000_000_000 + Int64(n / 50) * 7, counter: Int32(n % 3), peer: peers[n % 2])
            let values: [String: PropertyValue] = [
                "name": .string("Item \(n)"), "quantity": .double(Double(n % 7) + 0.5),
                "listed": .bool(n % 3 == 0), "modified": .date(Date(timeIntervalSince1970: 1_800_000_000.25)),
            ]
            var clocks = values.mapValues { _ in reading }
            if n % 5 == 0 { clocks["modified"] = nil }  // a value stored before readings existed
            objects.append(.init(object: ObjectID(entity: "Item", id: id(n)), values: values, clocks: clocks))
            if n % 10 == 0 {
                tombstones.append(
                    .init(
                        object: ObjectID(entity: n % 20 == 0 ? "Item" : "List", id: id(100_000 + n)), clock: reading,
                        mergedInto: n % 20 == 0 ? id(n) : nil))
            }
        }
        return Baseline(
            covers: [peers[0]: 40, peers[1]: 3], created: Date(timeIntervalSinceReferenceDate: 785_000_000.5),
            objects: objects, tombstones: tombstones)
    }

    @Test func everyKindOfValueReadsBackExactly() throws {
        for baseline in [
            BaselineJSONTests.baseline(doubles: BaselineJSONTests.awkward), Self.items(300),
            Baseline(covers: [:], created: Date(timeIntervalSinceReferenceDate: -0.5), objects: [], tombstones: []),
        ] {
            let read = try #require(Baseline(compactData: try baseline.compactData()))
            #expect(read == baseline)
            #expect(BaselineJSONTests.bits(read) == BaselineJSONTests.bits(baseline))
        }
    }

    @Test func readingsAndNamesAreWrittenOnce() throws {
        let baseline = Self.items(2000)
        let compact = try baseline.compactData()
        let first = try BaselineJSONTests.foundationBytes(baseline)
        #expect(compact.count * 3 < first.count, "\(compact.count) bytes against \(first.count) in the first format")
        let text = String(decoding: compact, as: UTF8.self)
        #expect(text.components(separatedBy: "\"\(Self.peers[0])\"").count == 2 + 1, "in covers and in peers only")
        #expect(text.components(separatedBy: "\"quantity\"").count == 2)
    }

    @Test func aReadingNoStoreHoldsThrowsInsteadOfTrapping() {
        var baseline = Self.items(2)
        baseline.objects[0].clocks["name"] = HLC(wall: .min, counter: 0, peer: Self.peers[0])
        baseline.objects[1].clocks["name"] = HLC(wall: .max, counter: 0, peer: Self.peers[0])
        #expect(throws: EncodingError.self) { try baseline.compactData() }
    }

    /// Payloads that are not what ``Baseline/compactData()`` writes: each is unreadable, whole.
    static let unreadable: [String] = [
        "",
        #"{"covers":{},"created":0,"entities":[],"peers":[],"readings":[],"objects":[]}"#,  // no tombstones
        // Out of order:
        #"{"created":0,"covers":{},"entities":[],"peers":[],"readings":[],"objects":[],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[],"peers":[],"readings":[],"objects":[],"tombstones":[],"later":1}"#,
        #"{"covers":{"p":1,"p":2},"created":0,"entities":[],"peers":[],"readings":[],"objects":[],"tombstones":[]}"#,
        #"{"covers":{},"created":1e999,"entities":[],"peers":[],"readings":[],"objects":[],"tombstones":[]}"#,
        // Not triples:
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[1,0],"objects":[],"tombstones":[]}"#,
        // No such peer:
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[1,0,1],"objects":[],"tombstones":[]}"#,
        // Descending:
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[5,0,0,-1,0,0],"objects":[],"tombstones":[]}"#,
        // After 9999:
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[253402300800000,0,0],"objects":[],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[9223372036854775807,0,0,9223372036854775807,0,0],"objects":[],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[],"peers":["p"],"readings":[1,2147483648,0],"objects":[],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",1,[]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[1,{"s":"x"},0]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[0,{"s":"x"},1]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[0,{"s":"x"},0,0,{"s":"y"},0]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[0,{"s":"x"}]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[0,{"s":"x","i":1},0]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["not-an-id",0,[]]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",["a"]]],"peers":["p"],"readings":[1,0,0],"objects":[["00000000-0000-4000-8000-000000000001",0,[],1]],"tombstones":[]}"#,
        #"{"covers":{},"created":0,"entities":[["E",[]]],"peers":["p"],"readings":[1,0,0],"objects":[],"tombstones":[["00000000-0000-4000-8000-000000000001",0,3]]}"#,
        #"{"covers":{},"created":0,"entities":[["E",[]]],"peers":["p"],"readings":[1,0,0],"objects":[],"tombstones":[["00000000-0000-4000-8000-000000000001",0,0,null]]}"#,
        #"{"covers":{},"created":0,"entities":[["E",[]]],"peers":["p"],"readings":[1,0,0],"objects":[],"tombstones":[["00000000-0000-4000-8000-000000000001",0,0]]} x"#,
    ]

    @Test(arguments: unreadable)
    func aPayloadNotInTheFormIsUnreadable(_ text: String) {
        #expect(Baseline(compactData: Data(text.utf8)) == nil)
    }

    @Test func theSmallestPayloadsReadAsWhatTheySay() throws {
        let text =
            #"{"covers":{"p":2},"created":1.5,"entities":[["E",["a","b"]]],"peers":["p","q"],"readings":[10,0,1,0,3,0],"#
            + #""objects":[["00000000-0000-4000-8000-000000000001",0,[1,null,null,0,{"i":-4},1]]],"tombstones":[["00000000-0000-4000-8000-000000000002",0,0,"00000000-0000-4000-8000-000000000001"]]}"#
        let read = try #require(Baseline(compactData: Data(text.utf8)))
        #expect(
            read
                == Baseline(
                    covers: ["p": 2], created: Date(timeIntervalSinceReferenceDate: 1.5),
                    objects: [
                        .init(
                            object: ObjectID(entity: "E", id: Self.id(1)), values: ["a": .integer(-4), "b": .null],
                            clocks: ["a": HLC(wall: 10, counter: 3, peer: "p")])
                    ],
                    tombstones: [
                        .init(
                            object: ObjectID(entity: "E", id: Self.id(2)), clock: HLC(wall: 10, counter: 0, peer: "q"),
                            mergedInto: Self.id(1))
                    ]))
    }

    /// A written baseline mutated at random: never a crash, and what is read is a baseline that
    /// writes and reads back to itself.
    @Test func mutatedPayloadsAreReadWholeOrNotAtAll() throws {
        let base = try Self.items(30).compactData()
        let numbers = [
            "-1", "0", "7", "2147483648", "9223372036854775807", "253402300799999", "1e3", "0.5", "null", "\"x\"",
        ]
        var read = 0
        for seed in UInt64(1)...2000 {
            var random = SeededRandom(seed: seed)
            var data = LogMutationFuzzTests.mutate(base, using: &random)
            if seed % 2 == 0 {  // a number replaced
                var text = String(decoding: base, as: UTF8.self)
                let digits = text.indices.filter { text[$0].isNumber }
                let at = digits[Int.random(in: 0..<digits.count, using: &random)]
                text.replaceSubrange(at...at, with: numbers[Int.random(in: 0..<numbers.count, using: &random)])
                data = Data(text.utf8)
            }
            guard let baseline = Baseline(compactData: data) else { continue }
            read += 1
            #expect(Baseline(compactData: try baseline.compactData()) == baseline, "seed \(seed)")
        }
        #expect(read > 100)
    }

    // MARK: - In the cloud folder

    @Test func aNewPeerJoinsFromACompactBaseline() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        try a.store.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("one"), "count": .integer(1)])
            try $0.insert("Note", values: ["title": .string("two")])
        }
        try a.store.save(author: "delete") { context in
            let id = try #require(
                try a.store.read { db in try GlobalID.fetchOne(db, sql: "SELECT id FROM note WHERE title = 'two'") })
            try context.delete("Note", id: id)
        }
        try a.sync.exportPending()
        let url = try #require(try a.sync.writeBaseline())
        #expect(try Data(contentsOf: url).starts(with: Data("GDBASE 2\n".utf8)))
        let exported = try #require(a.sync.layout.sequenceNumbers(of: "peer-a").last)
        try a.removeOwnLogs()

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 1 && report.refused.isEmpty, "\(report.refused)")
        #expect(try c.titles() == ["one"])
        #expect(
            try c.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.tombstone)") } == 1)
        #expect(try c.sync.watermark(of: "peer-a") == exported, "the logs it covers are not waited for")
    }

    @Test func aBaselineInTheFirstFormatIsStillMerged() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("from an older build")]) }
        let url = try #require(try a.sync.writeBaseline())
        let (_, payload) = try LogFile.open(
            try Data(contentsOf: url), magic: Baseline.magic, expecting: a.sync.layout, peer: "peer-a", seq: 1)
        let baseline = try #require(Baseline(compactData: payload))
        // What builds before the compact format wrote: `JSONEncoder`'s bytes, sorted keys.
        try LogFile.seal(
            try BaselineJSONTests.foundationBytes(baseline), magic: Baseline.firstFormatMagic, layout: a.sync.layout,
            peer: "peer-a", device: "a", seq: 1
        ).write(to: url)
        try a.removeOwnLogs()

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 1 && report.refused.isEmpty, "\(report.refused)")
        #expect(try c.titles() == ["from an older build"])
    }

    @Test func filesOfALaterFormatAreRefusedSayingSo() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("in the baseline")]) }
        let url = try #require(try a.sync.writeBaseline())
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange(0..<8, with: Data("GDBASE 3".utf8))
        try bytes.write(to: url)
        var log = try Data(contentsOf: a.sync.layout.logURL(peer: "peer-a", seq: 1))
        log.replaceSubrange(0..<7, with: Data("GDLOG 12".utf8))
        try log.write(to: a.sync.layout.logURL(peer: "peer-a", seq: 1))

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 0)
        #expect(
            Set(report.refused.map(\.reason)) == [
                "it is in a format this build does not read (GDBASE 3): update this device to read it",
                "it is in a format this build does not read (GDLOG 12): update this device to read it",
            ])
        #expect(try c.titles().isEmpty)
        #expect(EnvelopeFile.isLaterFormat("GDBASE 1", of: [Baseline.magic]))
        #expect(!EnvelopeFile.isLaterFormat("GDBASE ", of: [Baseline.magic]))
        #expect(!EnvelopeFile.isLaterFormat("GDBASE 2x", of: [Baseline.magic]))
        #expect(!EnvelopeFile.isLaterFormat("GDLOG 2", of: [Baseline.magic]))
    }

    @Test func anUnreadablePayloadIsRefusedWhole() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("in the baseline")]) }
        let url = try #require(try a.sync.writeBaseline())
        let payload =
            #"{"covers":{"peer-a":1},"created":0,"entities":[["Note",["title"]]],"peers":["peer-a"],"readings":[1,0,0],"#
            + #""objects":[["00000000-0000-4000-8000-000000000001",0,[0,{"s":"ok"},5]]],"tombstones":[]}"#
        try LogFile.seal(
            Data(payload.utf8), magic: Baseline.magic, layout: a.sync.layout, peer: "peer-a", device: "a", seq: 1
        ).write(to: url)
        try a.removeOwnLogs()

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.refused.map(\.reason) == ["its content cannot be read"])
        #expect(try c.titles().isEmpty)
        #expect(try c.sync.watermark(of: "peer-a") == 0)
    }

    /// A baseline's objects are merged after its tombstones, knowing what those wrote: an
    /// object the baseline also lists as deleted stays deleted, and a delete of a copy merged
    /// away here deletes the copy it became, even when the baseline lists that one as live.
    @Test func aBaselinesTombstonesCountForItsOwnObjects() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("seed")]) }
        let url = try #require(try a.sync.writeBaseline())
        try a.removeOwnLogs()
        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        // On c, copy 2 was merged into copy 3 (as a deduplication leaves it).
        let (twice, merged, survivor, plain) = (Self.id(1), Self.id(2), Self.id(3), Self.id(4))
        try c.store.save(author: "copies") { context in
            for id in [merged, survivor] { try context.insert("Note", id: id, values: ["title": .string("copy")]) }
        }
        try c.store.write { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [merged.description])
            try PropertyClocks.tombstone(
                ObjectID(entity: "Note", id: merged), clock: HLC(wall: 1_800_000_000_000, counter: 0, peer: "peer-c"),
                mergedInto: survivor, db)
        }
        let reading = HLC(wall: 1_800_000_000_500, counter: 0, peer: "peer-a")
        func note(_ id: GlobalID, _ title: String) -> Baseline.Object {
            .init(
                object: ObjectID(entity: "Note", id: id), values: ["title": .string(title)], clocks: ["title": reading])
        }
        let baseline = Baseline(
            covers: ["peer-a": 1], created: clock.now(),
            objects: [
                note(twice, "listed and deleted"), note(survivor, "copy, live in the baseline"), note(plain, "plain"),
            ],
            tombstones: [
                .init(object: ObjectID(entity: "Note", id: twice), clock: reading),
                .init(object: ObjectID(entity: "Note", id: merged), clock: reading),
            ])
        try LogFile.seal(
            try baseline.compactData(), magic: Baseline.magic, layout: a.sync.layout, peer: "peer-a", device: "a",
            seq: 1
        )
        .write(to: url)

        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 1 && report.refused.isEmpty, "\(report.refused)")
        #expect(try c.titles() == ["plain"])
        let deleted = try c.store.read { db in
            try String.fetchSet(db, sql: "SELECT objectID FROM \(EngineTables.tombstone)")
        }
        #expect(deleted == Set([twice, merged, survivor].map(\.description)))
    }
}
