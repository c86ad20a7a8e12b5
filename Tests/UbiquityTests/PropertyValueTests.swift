import Foundation
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
    @Test func itDecodesToTheSameRecordAndMatchesTheEncoder() throws {
        let note = ObjectID(entity: "Note", id: GlobalID("6f1c2d3e-4b5a-4c6d-8e7f-001122334455")!)
        var values: [String: PropertyValue] = [:]
        for (index, value) in PropertyValueTests.values.enumerated() { values["p\(index)"] = value }
        values["quote"] = .string("say \"hi\"\n\t\\ \u{1}")
        values["blob"] = .blob(String(repeating: "ab", count: 32))
        values["small"] = .double(0.1 + 0.2)
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
    }
}
