import Foundation
import TestSupport
import Testing

@testable import GroceryModel

@Suite("Values found by an ID's stored text")
struct IDTextTableTests {
    func value(_ table: IDTextTable<Int>, _ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { table.value($0) }
    }

    @Test func eachTextFindsItsOwnValueAndNoOtherDoes() {
        var table = IDTextTable<Int>()
        var random = SeededRandom(seed: 3)
        let ids = (0..<300).map { _ in
            UUID(
                uuid: (
                    UInt8.random(in: 0...255, using: &random), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                    UInt8.random(in: 0...255, using: &random)
                )
            ).uuidString.lowercased()
        }
        let distinct = Array(Set(ids))
        for (index, id) in distinct.enumerated() { table.insert(id, index) }
        for (index, id) in distinct.enumerated() { #expect(value(table, id) == index) }
        #expect(value(table, distinct[0].uppercased()) == nil, "the bytes, not the ID")
        #expect(value(table, String(distinct[0].dropLast())) == nil)
        #expect(value(table, "") == nil)
    }

    /// Texts that share their first and last 8 bytes hash alike: each is still told apart.
    @Test func textsThatHashAlikeAreToldApart() {
        var table = IDTextTable<Int>()
        let texts = (0..<40).map { "aaaaaaaa-0000-4000-\(String(format: "%04d", $0))-000000000000" }
        for (index, text) in texts.enumerated() { table.insert(text, index) }
        for (index, text) in texts.enumerated() { #expect(value(table, text) == index) }
        table.insert(texts[7], 700)
        #expect(value(table, texts[7]) == 700, "a text inserted again replaces its value")
        #expect(value(table, texts[8]) == 8)
        table.insert("short", 1)
        table.insert("", 2)
        #expect(value(table, "short") == 1 && value(table, "") == 2 && value(table, "shorter") == nil)
    }
}
