import Foundation
import Testing

@testable import Ubiquity

/// The IDs every real device gives its objects and saves.
@Suite("Random IDs")
struct RandomIDGeneratorTests {
    @Test func idsAreVersionFourUUIDsInLowercaseAndNeverRepeat() throws {
        let generator = RandomIDGenerator()
        var seen: Set<GlobalID> = []
        for _ in 0..<10_000 {
            let id = generator.next()
            let text = id.description
            #expect(text.count == 36 && text == text.lowercased())
            let uuid = try #require(UUID(uuidString: text))
            #expect(uuid.uuid.6 >> 4 == 4, "version 4")
            #expect(uuid.uuid.8 >> 6 == 0b10, "variant 1")
            #expect(GlobalID(text) == id)
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }
}
