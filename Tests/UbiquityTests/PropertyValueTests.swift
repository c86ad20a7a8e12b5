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
