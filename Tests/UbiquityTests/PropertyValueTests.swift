import Foundation
import TestSupport
import Testing

@testable import Ubiquity

@Suite("Property values and records survive encoding")
struct PropertyValueTests {
    static let values: [PropertyValue] = [
        .null, .bool(true), .integer(-42), .double(1.5), .string("Crème brûlée 🍮"),
        .date(Date(timeIntervalSince1970: 1_800_000_000.123)), .data(Data([0, 255, 7])),
        .reference(GlobalID("6f1c2d3e-4b5a-4c6d-8e7f-001122334455")!),
    ]

    @Test(arguments: values)
    func roundTrip(_ value: PropertyValue) throws {
        let data = try JSONEncoder().encode([value])
        #expect(try JSONDecoder().decode([PropertyValue].self, from: data) == [value])
    }

    @Test func aValueWithTwoTagsIsRejected() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PropertyValue.self, from: Data(#"{"s":"a","i":1}"#.utf8))
        }
    }

    @Test func globalIDsAreLowercaseAndOrderedByText() throws {
        let id = try #require(GlobalID("6F1C2D3E-4B5A-4C6D-8E7F-001122334455"))
        #expect(id.description == "6f1c2d3e-4b5a-4c6d-8e7f-001122334455")
        #expect(GlobalID("not-a-uuid") == nil)
        #expect(GlobalID("00000000-0000-4000-8000-000000000001")! < GlobalID("a0000000-0000-4000-8000-000000000000")!)
    }
}

@Suite("Hand-written record JSON")
struct RecordJSONTests {
    static let note = ObjectID(entity: "Note", id: GlobalID("6f1c2d3e-4b5a-4c6d-8e7f-001122334455")!)

    /// A value of every kind, a string to escape, a blob's hash and a double without a short form.
    static func sampleValues(quote: String) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for (index, value) in PropertyValueTests.values.enumerated() { values["p\(index)"] = value }
        values["quote"] = .string(quote)
        values["blob"] = .blob(String(repeating: "ab", count: 32))
        values["small"] = .double(0.1 + 0.2)
        return values
    }

    @Test func itDecodesToTheSameRecordAndMatchesTheEncoder() throws {
        let note = Self.note
        let values = Self.sampleValues(quote: "say \"hi\"\n\t\\ \u{1}")
        let record = TransactionRecord(
            transactionID: GlobalID("00000000-0000-4000-8000-000000000001")!,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.123), author: "tést \"author\"",
            inserted: [ObjectChange(object: note, values: values)],
            updated: [ObjectChange(object: note, values: ["p1": .bool(false)])],
            deleted: [note], clock: HLC(wall: 1_800_000_000_123, counter: 7, peer: "peer-a"))
        let decoded = try JSONDecoder().decode(TransactionRecord.self, from: record.jsonData())
        #expect(decoded == record)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let viaFoundation = try JSONDecoder().decode(TransactionRecord.self, from: try encoder.encode(record))
        #expect(viaFoundation == decoded)
        #expect(try TransactionRecord(jsonData: record.jsonData()) == record)
        #expect(try TransactionRecord(jsonData: try encoder.encode(record)) == record)
    }

    /// The bytes the outbox and the logs hold, as every build before wrote them: a change of the
    /// writer's code must not change them (a log's digest, a peer's comparison of records).
    @Test func theBytesAreAsBefore() throws {
        let note = Self.note
        let other = ObjectID(entity: "Note", id: GlobalID("7f1c2d3e-4b5a-4c6d-8e7f-001122334455")!)
        let values = Self.sampleValues(quote: "say \"hi\"\n\t\\ \u{1} é")
        let reading = HLC(wall: 1_800_000_000_123, counter: 7, peer: "peer-a")
        let record = TransactionRecord(
            transactionID: GlobalID("00000000-0000-4000-8000-000000000001")!,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.123), author: "tést \"author\"",
            inserted: [ObjectChange(object: note, values: values), ObjectChange(object: other, values: [:])],
            updated: [ObjectChange(object: note, values: ["p1": .bool(false), "p0": .null])],
            deleted: [note, other],
            merged: [
                ObjectMerge(object: other, into: note.id, chosen: ["title": .string("Milk")], reading: reading),
                ObjectMerge(object: note, into: other.id),
            ],
            clock: reading)
        let text = String(decoding: record.jsonData(), as: UTF8.self)
        #expect(text == Self.expectedBytes)
    }

    static let expectedBytes =
        #"{"author":"tést \"author\"","clock":"0001800000000123.000007.peer-a","deleted":[{"entity":"Note","id":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455"},{"entity":"Note","id":"7f1c2d3e-4b5a-4c6d-8e7f-001122334455"}],"inserted":[{"object":{"entity":"Note","id":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455"},"values":{"blob":{"h":"abababababababababababababababababababababababababababababababab"},"p0":null,"p1":{"b":true},"p2":{"i":-42},"p3":{"d":1.5},"p4":{"s":"Crème brûlée 🍮"},"p5":{"t":1800000000.123},"p6":{"x":"AP8H"},"p7":{"r":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455"},"quote":{"s":"say \"hi\"\n\t\\ \u0001 é"},"small":{"d":0.30000000000000004}}},{"object":{"entity":"Note","id":"7f1c2d3e-4b5a-4c6d-8e7f-001122334455"},"values":{}}],"merged":[{"chosen":{"title":{"s":"Milk"}},"into":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455","object":{"entity":"Note","id":"7f1c2d3e-4b5a-4c6d-8e7f-001122334455"},"reading":"0001800000000123.000007.peer-a"},{"into":"7f1c2d3e-4b5a-4c6d-8e7f-001122334455","object":{"entity":"Note","id":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455"}}],"timestamp":821692800.1229999,"transactionID":"00000000-0000-4000-8000-000000000001","updated":[{"object":{"entity":"Note","id":"6f1c2d3e-4b5a-4c6d-8e7f-001122334455"},"values":{"p0":null,"p1":{"b":false}}}]}"#

    @Test func randomRecordsRoundTripExactly() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            var values: [String: PropertyValue] = [:]
            for index in 0..<8 {
                values["p\(index)"] =
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0:
                        .double(
                            Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
                                * (Bool.random(using: &random) ? 1 : -1))
                    case 1: .integer(Int64(bitPattern: random.next()))
                    case 2:
                        .string(
                            String(
                                (0..<12).map { _ in
                                    Character(Unicode.Scalar(UInt32.random(in: 1...0x2FFF, using: &random)) ?? "x")
                                }))
                    case 3: .date(Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &random)))
                    case 4: .string("🍞\u{1F}\"\\\u{7F}é")
                    default: .bool(Bool.random(using: &random))
                    }
            }
            let record = TransactionRecord(
                transactionID: GlobalID(UUID()),
                timestamp: Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)),
                author: "random",
                inserted: [ObjectChange(object: ObjectID(entity: "Note", id: GlobalID(UUID())), values: values)],
                updated: [], deleted: [], clock: nil)
            #expect(try TransactionRecord(jsonData: record.jsonData()) == record)
        }
    }

    @Test(arguments: [
        "", "[]", "{", #"{"author":1}"#, #"{"a":"\ud800"}"#,
        #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"x","inserted":[],"updated":[]}"#,
        #"{"deleted":[],"author":"a","timestamp":1,"transactionID":"00000000-0000-4000-8000-000000000001","inserted":[{"object":{"entity":"N","id":"00000000-0000-4000-8000-000000000001"},"values":{"a":{"s":"x","i":1}}}],"updated":[]}"#,
    ])
    func malformedRecordsAreRefused(_ text: String) {
        #expect(throws: RecordJSONError.self) { try TransactionRecord(jsonData: Data(text.utf8)) }
    }
}
