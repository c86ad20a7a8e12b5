import Foundation
import GRDB
import Testing
import TestSupport
import TextAndFiles
@testable import Ubiquity

/// The hand-written fast paths give exactly what the plain forms they replace gave.
@Suite("Fast paths")
struct FastPathTests {
    @Test("an ID made from a UUID is its lowercase text")
    func idFromUUID() {
        for _ in 0..<1000 {
            let uuid = UUID()
            #expect(GlobalID(uuid).description == uuid.uuidString.lowercased())
            #expect(GlobalID(uuid.uuidString) == GlobalID(uuid))
        }
    }

    @Test("IDs are checked byte by byte: UUIDs of any case, nothing else")
    func idParsing() {
        #expect(GlobalID("0A1B2C3D-4E5F-6789-ABCD-EF0123456789")?.description == "0a1b2c3d-4e5f-6789-abcd-ef0123456789")
        for text in ["", "0a1b2c3d-4e5f-6789-abcd-ef012345678", "0a1b2c3d-4e5f-6789-abcd-ef01234567890",
                     "0a1b2c3d_4e5f-6789-abcd-ef0123456789", "0a1b2c3d-4e5f-6789-abcd-ef012345678g",
                     "0a1b2c3d-4e5f-6789-abcd-ef012345678é"] {
            #expect(GlobalID(text) == nil, "\(text)")
        }
    }

    @Test("IDs read from a statement's text are the same as through DatabaseValue")
    func idFromStatement() throws {
        let queue = try DatabaseQueue()
        let id = GlobalID(UUID())
        let (fast, slow, missing) = try queue.read { db in
            // A cursor's row reads from the statement itself (the fast path); kept alive meanwhile.
            let cursor = try Row.fetchCursor(db, sql: "SELECT ?, upper(?), NULL", arguments: [id, id])
            let row = try #require(try cursor.next())
            return (row[0] as GlobalID, GlobalID.fromDatabaseValue(row[1] as DatabaseValue), row[2] as GlobalID?)
        }
        #expect(fast == id)
        #expect(slow == id)
        #expect(missing == nil)
    }

    @Test("a JSON string appended as bytes is the quoted string")
    func appendQuoted() {
        for text in ["", "Milk", "Crème \"fraîche\"", "back\\slash", "tab\tand\nnewline\u{1}", "👨‍👩‍👧", "\u{7F}"] {
            var bytes: [UInt8] = []
            JSONText.appendQuoted(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.quoted(text))
        }
    }

    @Test("property clocks are written sorted by name, each reading in full, and read back alike")
    func clockText() {
        let a = HLC(wall: 1_800_000_000_000, counter: 3, peer: "peer-a"), b = HLC(wall: 5, counter: 0, peer: "peer-b")
        let clocks = ["quantity": a, "name": a, "listed": b, "modified": a]
        let text = PropertyClocks.encode(clocks)
        #expect(text == "listed=\(b);modified=\(a);name=\(a);quantity=\(a)")
        #expect(PropertyClocks.decode(text) == clocks)
        #expect(PropertyClocks.encode([:]) == "")
    }
}
