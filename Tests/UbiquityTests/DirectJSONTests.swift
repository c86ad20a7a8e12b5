import Foundation
import TestSupport
import Testing
import TextAndFiles

@testable import Ubiquity

/// Outcomes of reading bytes, comparable: the value read or the message given.
private func outcome<T>(_ read: () throws -> T) -> Result<T, RecordJSONError> {
    do { return .success(try read()) } catch let error as RecordJSONError { return .failure(error) } catch {
        return .failure(.malformed("unexpected error \(error)"))
    }
}

@Suite("Records read straight from their bytes")
struct ScannedRecordTests {
    static let note = ObjectID(entity: "Note", id: GlobalID("6f1c2d3e-4b5a-4c6d-8e7f-001122334455")!)
    static let other = ObjectID(entity: "Note", id: GlobalID("7f1c2d3e-4b5a-4c6d-8e7f-001122334455")!)

    /// A record with a value of every kind, strings to escape, merges and a clock.
    static var rich: TransactionRecord {
        let reading = HLC(wall: 1_800_000_000_123, counter: 7, peer: "peer-a")
        return TransactionRecord(
            transactionID: GlobalID("00000000-0000-4000-8000-000000000001")!,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.123), author: "tést \"author\"",
            inserted: [
                ObjectChange(
                    object: note, values: RecordJSONTests.sampleValues(quote: "say \"hi\"\n\t\\ \u{1} é \u{1F35E} /")),
                ObjectChange(object: other, values: [:]),
            ],
            updated: [ObjectChange(object: note, values: ["p1": .bool(false), "p0": .null, "n": .double(-0.0)])],
            deleted: [note, other],
            merged: [
                ObjectMerge(object: other, into: note.id, chosen: ["title": .string("Milk")], reading: reading),
                ObjectMerge(object: note, into: other.id),
            ],
            clock: reading)
    }

    /// Both readings of `data`: the record or the message, the same from each.
    static func expectSameReading(
        _ data: Data, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let direct = outcome { try TransactionRecord(jsonData: data) }
        let tree = outcome { try TransactionRecord(parsing: data) }
        #expect(direct == tree, comment, sourceLocation: sourceLocation)
    }

    @Test func aRecordOfEveryKindIsReadStraightInEveryForm() throws {
        let record = Self.rich
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        for data in [
            record.jsonData(), try sorted.encode(record), try JSONEncoder().encode(record), try pretty.encode(record),
        ] {
            #expect(TransactionRecord.scanned(data) == record)
            #expect(try TransactionRecord(parsing: data) == record)
        }
        let written = Data(RecordJSONTests.expectedBytes.utf8)
        #expect(TransactionRecord.scanned(written) != nil)
        #expect(TransactionRecord.scanned(written) == (try TransactionRecord(parsing: written)))
    }

    @Test func randomRecordsReadAsTheTreeReadsThem() throws {
        var random = SeededRandom(seed: 91)
        func id() -> GlobalID {
            GlobalID(
                UUID(
                    uuid: (
                        UInt8.random(in: 0...255, using: &random), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                        UInt8.random(in: 0...255, using: &random)
                    )))
        }
        func value() -> PropertyValue {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                .double(
                    Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &random) ? 1 : -1))
            case 1: .integer(Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random))
            case 2:
                .string(
                    String(
                        (0..<Int.random(in: 0...12, using: &random)).map { _ in
                            Character(Unicode.Scalar(UInt32.random(in: 1...0x2FFFF, using: &random)) ?? "x")
                        }))
            case 3: .date(Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &random)))
            case 4: .string("🍞\u{1F}\"\\\u{7F}é/")
            case 5: .null
            case 6:
                .data(
                    Data(
                        (0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                        }))
            case 7: .reference(id())
            case 8:
                .double(
                    [
                        0.1 + 0.2, 1e-300, .leastNonzeroMagnitude, 1e15, 1e16, 123_456_789.123_456_78,
                        1.797_693_134_862_315_7e308,
                    ][
                        Int.random(in: 0..<7, using: &random)])
            default: .bool(Bool.random(using: &random))
            }
        }
        func change() -> ObjectChange {
            ObjectChange(
                object: ObjectID(entity: ["Note", "Folder", "É"][Int.random(in: 0..<3, using: &random)], id: id()),
                values: Dictionary(
                    uniqueKeysWithValues: (0..<Int.random(in: 0...6, using: &random)).map { ("p\($0)", value()) }))
        }
        for _ in 0..<400 {
            let reading =
                Bool.random(using: &random)
                ? HLC(wall: Int64.random(in: 0...1 << 50, using: &random), counter: 3, peer: "p") : nil
            let record = TransactionRecord(
                transactionID: id(),
                timestamp: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...4e9, using: &random)),
                author: ["random", "", "a \"b\""][Int.random(in: 0..<3, using: &random)],
                inserted: (0..<Int.random(in: 0...3, using: &random)).map { _ in change() },
                updated: (0..<Int.random(in: 0...3, using: &random)).map { _ in change() },
                deleted: (0..<Int.random(in: 0...2, using: &random)).map { _ in ObjectID(entity: "Note", id: id()) },
                merged: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    ObjectMerge(
                        object: ObjectID(entity: "Note", id: id()), into: id(),
                        chosen: reading == nil ? [:] : ["title": value()], reading: reading)
                },
                clock: reading)
            let data = record.jsonData()
            #expect(TransactionRecord.scanned(data) == record)
            #expect(try TransactionRecord(parsing: data) == record)
            #expect(TransactionRecord.scanned(try JSONEncoder().encode(record)) == record)
        }
    }

    static let id = "00000000-0000-4000-8000-000000000001"
    static let reference = #"{"entity":"N","id":"\#(id)"}"#

    /// Well-formed records the writer never writes, which the tree reads: unknown keys (of a
    /// later build), repeated keys, white space, escapes, numbers in other forms.
    static let unusual: [String] = [
        #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[],"future":{"a":[1,{"b":null}],"c":"\u00e9"}}"#,
        #"{"deleted":[],"author":"a","author":"b","timestamp":1,"timestamp":2.5,"transactionID":"\#(id)","inserted":[],"updated":[]}"#,
        #" { "deleted" : [ \#(reference) , {"id":"\#(id)","entity":"M","x":[]} ] , "author":"a\u0041\n\/\ud83c\udf5e","timestamp":-0,"transactionID":"\#(id.uppercased())","inserted":[],"updated":[] } "#,
        #"{"deleted":[],"author":"a","timestamp":1e3,"transactionID":"\#(id)","inserted":[{"x":1,"values":{"a":{"i":+5},"a":{"d":-0},"b":{"d":01.50},"c":{"t":1E-3}},"object":\#(reference)}],"updated":[],"clock":null}"#,
        #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[],"merged":[{"object":\#(reference),"into":"\#(id)","reading":null,"extra":true},{"chosen":{},"object":\#(reference),"into":"\#(id)","reading":"0000000000000001.000000.p"}]}"#,
        #"{"deleted":[],"author":"\u00e9\u0000","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[{"object":\#(reference),"values":{"h":{"h":"\#(String(repeating: "aB", count: 32))"},"x":{"x":"AP8H"},"n":null,"r":{"r":"\#(id)"},"b":{"b":false}}}]}"#,
    ]

    @Test(arguments: unusual)
    func unusualRecordsAreReadStraightAsTheTreeReadsThem(_ text: String) throws {
        let data = Data(text.utf8)
        let record = try #require(TransactionRecord.scanned(data))
        #expect(record == (try TransactionRecord(parsing: data)))
    }

    /// Records the scanner does not take though the tree reads them: a repeated key whose first
    /// value is no reading, an escape `Int` parses loosely (`\u+041`).
    static let leftToTheTree: [String] = [
        #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[],"clock":"x","clock":"0000000000000001.000000.p"}"#,
        #"{"deleted":[],"author":"a\u+041","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[]}"#,
    ]

    @Test(arguments: leftToTheTree)
    func recordsTheScannerLeavesAreReadByTheTree(_ text: String) throws {
        let data = Data(text.utf8)
        #expect(TransactionRecord.scanned(data) == nil)
        #expect(try TransactionRecord(jsonData: data) == TransactionRecord(parsing: data))
    }

    /// Bytes that are no record, with the message each gave before the scanner existed.
    static let refused: [(text: String, message: String)] = [
        ("", "not a transaction record: unexpected end at byte 0"),
        ("[]", "not a transaction record: not a JSON object"),
        ("{", #"not a transaction record: expected " at byte 1"#),
        (#"{"author":1}"#, "not a transaction record: no deleted list"),
        (#"{"a":"\ud800"}"#, #"not a transaction record: expected \u at byte 12"#),
        (
            #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"x","inserted":[],"updated":[]}"#,
            "not a transaction record: an id is not a UUID"
        ),
        (
            #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[{"object":\#(reference),"values":{"a":{"s":"x","i":1}}}],"updated":[]}"#,
            "not a transaction record: a property value has exactly one tag"
        ),
        (
            #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[],"x":[1,]}"#,
            "not a transaction record: unexpected character at byte 130"
        ),
        (
            #"{"deleted":[],"author":"a","timestamp":1e999,"transactionID":"\#(id)","inserted":[],"updated":[]}"#,
            "not a transaction record: the timestamp is not a number"
        ),
        (
            #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[],"merged":null}"#,
            "not a transaction record: the merge list is not an array"
        ),
        (
            #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"\#(id)","inserted":[],"updated":[]} x"#,
            "not a transaction record: text after the document at byte 124"
        ),
        (String(repeating: "[", count: 70), "not a transaction record: nested too deeply at byte 64"),
    ]

    @Test(arguments: 0..<refused.count)
    func badRecordsGiveTheMessagesTheyGaveBefore(_ index: Int) {
        let (text, message) = Self.refused[index]
        let data = Data(text.utf8)
        Self.expectSameReading(data)
        #expect(throws: RecordJSONError.malformed(String(message.dropFirst("not a transaction record: ".count)))) {
            try TransactionRecord(jsonData: data)
        }
    }

    /// Real logs and the rich record mutated at random (as the log fuzzing mutates them), and
    /// bytes of their own: every one is read, or refused with the message, as the tree does.
    @Test func mutatedRecordsAreReadOrRefusedAsTheTreeDoes() throws {
        let cloud = TemporaryDirectory("scan-fuzz-cloud")
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: TestClock())
        let payloads =
            try LogMutationFuzzTests.realPayloads(from: a) + [Self.rich.jsonData()] + Self.unusual.map { Data($0.utf8) }
        var read = 0
        for seed in UInt64(1)...3000 {
            var random = SeededRandom(seed: seed)
            let base = payloads[Int.random(in: 0..<payloads.count, using: &random)]
            var data = LogMutationFuzzTests.mutate(base, using: &random)
            // Bytes the tree mutations never make: an escape, white space, a digit or a quote put in.
            if Int.random(in: 0..<3, using: &random) == 0, !data.isEmpty {
                let insert: [UInt8] = Array(
                    [#"\"#, " ", "1", #"""#, "-", "e", #"\u"#, ",", "}", "]", "\u{0}"][
                        Int.random(in: 0..<11, using: &random)
                    ].utf8)
                data.insert(contentsOf: insert, at: Int.random(in: 0...data.count, using: &random))
            }
            Self.expectSameReading(data, "seed \(seed)")
            if (try? TransactionRecord(parsing: data)) != nil { read += 1 }
        }
        #expect(read > 100)
    }
}

@Suite("Baselines read straight from their bytes; doubles exact in both formats")
struct BaselineJSONTests {
    static let awkward: [Double] = [
        0.1 + 0.2, 1e-300, .leastNonzeroMagnitude, 1e15, 1e16, 123_456_789.123_456_78, 1.797_693_134_862_315_7e308,
        -0.0, 0, 1, -2.5, 9_007_199_254_740_992, 1e21, 1 / 3, 2.225_073_858_507_201_4e-308,
    ]

    static func baseline(doubles: [Double], strings: [String] = ["Milk", "Crème brûlée 🍮", "say \"hi\"\n\t\\ \u{1} /"])
        -> Baseline
    {
        let id = { (n: Int) in GlobalID("00000000-0000-4000-8000-" + String(n).leftPadded(to: 12))! }
        var values: [String: PropertyValue] = [:]
        for (index, double) in doubles.enumerated() {
            values["d\(index)"] = .double(double)
            values["t\(index)"] = .date(Date(timeIntervalSince1970: double))
        }
        for (index, string) in strings.enumerated() { values["s\(index)"] = .string(string) }
        values["i"] = .integer(Int64.max)
        values["j"] = .integer(Int64.min)
        values["b"] = .bool(true)
        values["n"] = .null
        values["x"] = .data(Data([0, 255, 7]))
        values["r"] = .reference(id(9))
        values["h"] = .blob(String(repeating: "ab", count: 32))
        let clocks = Dictionary(
            uniqueKeysWithValues: values.keys.map { ($0, HLC(wall: 1_800_000_000_123, counter: 2, peer: "peer-a")) })
        return Baseline(
            covers: ["peer-a": 12, "peer-b": Int64.max, "peer-c": 0],
            created: Date(timeIntervalSinceReferenceDate: doubles.first ?? 785_000_000.123),
            objects: [
                Baseline.Object(object: ObjectID(entity: "Item", id: id(1)), values: values, clocks: clocks),
                Baseline.Object(object: ObjectID(entity: "List", id: id(2)), values: [:], clocks: [:]),
            ],
            tombstones: [
                Baseline.Tombstone(
                    object: ObjectID(entity: "Item", id: id(3)), clock: HLC(wall: 5, counter: 0, peer: "peer-b"),
                    mergedInto: nil),
                Baseline.Tombstone(
                    object: ObjectID(entity: "Item", id: id(4)), clock: HLC(wall: 6, counter: 1, peer: "peer-b"),
                    mergedInto: id(1)),
            ])
    }

    /// Every double in the baseline, bit for bit (`==` takes -0 for 0).
    static func bits(_ baseline: Baseline) -> [String: UInt64] {
        var bits = ["created": baseline.created.timeIntervalSinceReferenceDate.bitPattern]
        for object in baseline.objects {
            for (name, value) in object.values {
                if case .double(let double) = value { bits[name] = double.bitPattern }
                if case .date(let date) = value { bits[name] = date.timeIntervalSince1970.bitPattern }
            }
        }
        return bits
    }

    static func foundationBytes(_ baseline: Baseline) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(baseline)
    }

    @Test func aBaselineFoundationWroteIsReadStraightAndExactly() throws {
        let baseline = Self.baseline(doubles: Self.awkward)
        let data = try Self.foundationBytes(baseline)
        let scanned = try #require(Baseline.scanned(data))
        #expect(scanned == baseline)
        #expect(Self.bits(scanned) == Self.bits(baseline))
        #expect(try Baseline(jsonData: try JSONEncoder().encode(baseline)) == baseline)  // keys in any order
    }

    @Test func randomDoublesRoundTripBothWays() throws {
        var random = SeededRandom(seed: 91)
        for _ in 0..<50 {
            let doubles = (0..<20).map { _ in
                Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &random) ? 1 : -1)
            }
            let baseline = Self.baseline(doubles: doubles)
            let compact = try #require(Baseline(compactData: try baseline.compactData()))
            #expect(Self.bits(compact) == Self.bits(baseline))
            #expect(compact == baseline)
            let data = try Self.foundationBytes(baseline)
            #expect(Self.bits(try #require(Baseline.scanned(data))) == Self.bits(baseline))
        }
    }

    @Test func aNumberThatIsNotFiniteIsRefusedAsJSONEncoderRefusesIt() {
        #expect(throws: EncodingError.self) { try Self.baseline(doubles: [.infinity]).compactData() }
        #expect(throws: EncodingError.self) { try Self.baseline(doubles: [.nan]).compactData() }
    }

    static let minimal = #"{"covers":{"p":1},"created":2,"objects":[],"tombstones":[]}"#

    /// Baselines the scanner leaves to `JSONDecoder`, which reads them as it always did:
    /// repeated keys (it keeps the first), unknown keys, numbers outside the scanner's forms, a
    /// property value with a tag it ignores, bytes that are not UTF-8.
    static let leftToFoundation: [String] = [
        #"{"covers":{"p":1,"p":2},"created":2,"objects":[],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"created":3,"objects":[],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"objects":[],"tombstones":[],"later":{"a":[1]}}"#,
        #"{"covers":{"p":1.0},"created":2,"objects":[],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"objects":[{"object":{"entity":"E","id":"00000000-0000-4000-8000-000000000001"},"values":{"a":{"s":"x","zz":1}},"clocks":{}}],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"objects":[{"object":{"entity":"E","id":"00000000-0000-4000-8000-000000000001"},"values":{"a":{"i":2.0}},"clocks":{}}],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"objects":[],"tombstones":[{"object":{"entity":"E","id":"00000000-0000-4000-8000-000000000001","x":1},"clock":"0000000000000001.000000.p"}]}"#,
        #"{"covers":{"p":+1},"created":2,"objects":[],"tombstones":[]}"#,
        #"{"covers":{"p":1},"created":2,"objects":[],"tombstones":[],}"#,
        #"{"covers":{"p":1},"created":2,"objects":[]}"#,
        #"{"covers":{"p":1},"created":1e999,"objects":[],"tombstones":[]}"#,
    ]

    @Test(arguments: leftToFoundation)
    func baselinesTheScannerLeavesAreReadAsFoundationReadsThem(_ text: String) {
        let data = Data(text.utf8)
        #expect(Baseline.scanned(data) == nil)
        #expect((try? Baseline(jsonData: data)) == (try? JSONDecoder().decode(Baseline.self, from: data)))
    }

    @Test func invalidUTF8IsLeftToFoundation() {
        var data = Data(#"{"covers":{"p":1},"created":2,"objects":[],"tombstones":[{"object":{"entity":"E"#.utf8)
        data.append(0xFF)
        data.append(
            contentsOf: Data(
                #"","id":"00000000-0000-4000-8000-000000000001"},"clock":"0000000000000001.000000.p"}]}"#.utf8))
        #expect(Baseline.scanned(data) == nil)
        #expect((try? Baseline(jsonData: data)) == (try? JSONDecoder().decode(Baseline.self, from: data)))
    }

    @Test func aMinimalBaselineWithNullAndAbsentTargetsIsReadStraight() throws {
        #expect(
            Baseline.scanned(Data(Self.minimal.utf8))
                == Baseline(
                    covers: ["p": 1], created: Date(timeIntervalSinceReferenceDate: 2), objects: [], tombstones: []))
        let text =
            #"{"tombstones":[{"object":{"id":"00000000-0000-4000-8000-000000000001","entity":"E"},"mergedInto":null,"clock":"0000000000000001.000000.p"}],"objects":[],"created":-0.5,"covers":{}}"#
        let data = Data(text.utf8)
        let scanned = try #require(Baseline.scanned(data))
        #expect(scanned == (try JSONDecoder().decode(Baseline.self, from: data)))
        #expect(scanned.tombstones.first?.mergedInto == nil)
    }

    /// A written baseline mutated at random: read to what `JSONDecoder` reads, or refused as it refuses.
    @Test func mutatedBaselinesReadAsFoundationReadsThem() throws {
        let base = try Self.foundationBytes(Self.baseline(doubles: [0.1 + 0.2, 1e-300, 785_000_000.123, 1]))
        var taken = 0
        for seed in UInt64(1)...1500 {
            var random = SeededRandom(seed: seed)
            let data = LogMutationFuzzTests.mutate(base, using: &random)
            let foundation = try? JSONDecoder().decode(Baseline.self, from: data)
            #expect((try? Baseline(jsonData: data)) == foundation, "seed \(seed)")
            if foundation != nil { taken += 1 }
        }
        #expect(taken > 100)
    }
}

@Suite("Clock readings read from their bytes")
struct ClockReadingBytesTests {
    static let texts = [
        "0001800000000123.000007.peer-a", "1.2.p", "1.2.p.q.r", "0.0.x", "999999999999999999.999999999.p",
        "1000000000000000000.1.p",
        "1.1234567890.p", "-1.2.p", "+1.2.p", "1.-2.p", "1.2.", "1.2", "1..p", ".1.p", "", "1.2.pé", "1.2.p\u{301}",
        "١.2.p",
        "12a.3.p", "9223372036854775807.0.p", "1.2147483647.p", "1. 2.p",
        "0001800000000123.000007.00000000-0000-4000-8000-000000000001",
    ]

    @Test(arguments: texts)
    func aReadingFromBytesIsTheReadingFromText(_ text: String) {
        var text = text
        let fast = text.withUTF8 { HLC(asciiBytes: $0) }
        if let fast { #expect(fast == HLC(text)) }
        #expect(HLC(stored: text) == HLC(text), "a store's reading is read as its text is")
        // Every reading a clock makes (wall and counter not negative, of at most 18 and 9 digits,
        // an ASCII peer) is read from the bytes of its text.
        if let reading = HLC(text), (0..<1_000_000_000_000_000_000).contains(reading.wall),
            (0..<1_000_000_000).contains(reading.counter),
            reading.peer.utf8.allSatisfy({ $0 < 0x80 })
        {
            var written = reading.description
            #expect(written.withUTF8 { HLC(asciiBytes: $0) } == reading)
        }
    }

    /// The text a reading is written as: the wall clock in at least 16 digits, the counter in at
    /// least 6, zeros in front, as the first builds wrote it.
    @Test func aReadingIsWrittenPaddedAsEver() {
        func padded(_ reading: HLC) -> String {
            let wall = String(reading.wall)
            let counter = String(reading.counter)
            return String(repeating: "0", count: max(0, 16 - wall.count)) + wall + "."
                + String(repeating: "0", count: max(0, 6 - counter.count)) + counter + "." + reading.peer
        }
        var random = SeededRandom(seed: 5)
        var readings = [
            HLC(wall: 0, counter: 0, peer: "p"), HLC(wall: 1_800_000_000_123, counter: 7, peer: "peer-a"),
            HLC(wall: 9_999_999_999_999_999, counter: 999_999, peer: "pé"),
            HLC(wall: 10_000_000_000_000_000, counter: 1_000_000, peer: "x"),
            HLC(wall: .max, counter: .max, peer: "00000000-0000-4000-8000-000000000001"),
            HLC(wall: -5, counter: -1, peer: "hostile"),
            HLC(wall: .min, counter: .min, peer: ""),
        ]
        for _ in 0..<500 {
            readings.append(
                HLC(
                    wall: Int64.random(in: 0...Int64.max, using: &random) >> Int64.random(in: 0...62, using: &random),
                    counter: Int32.random(in: 0...Int32.max, using: &random)
                        >> Int32.random(in: 0...30, using: &random), peer: "peer"))
        }
        for reading in readings { #expect(reading.description == padded(reading)) }
        #expect(
            HLC(wall: 1_800_000_000_123, counter: 7, peer: "peer-a").description == "0001800000000123.000007.peer-a")
    }
}
