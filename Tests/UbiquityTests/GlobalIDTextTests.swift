import Foundation
import Testing

@testable import Ubiquity

/// An ID's text is checked with a table of each byte's kind (`GlobalID.check`): it accepts
/// exactly what the plain reading of the rule accepts — 36 characters, dashes at 8, 13, 18 and
/// 23, hexadecimal digits elsewhere — and says whether a digit is uppercase.
@Suite("An ID's text")
struct GlobalIDTextTests {
    /// The rule read plainly, byte by byte.
    static func reference(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count == 36 else { return nil }
        var hasUppercase = false
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else if (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) {
                hasUppercase = true
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                && !(UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            {
                return nil
            }
        }
        return hasUppercase
    }

    static func checked(_ bytes: [UInt8]) -> Bool? { bytes.withUnsafeBufferPointer(GlobalID.check) }

    @Test func everyByteAtEveryPlaceIsJudgedAsTheRuleSays() {
        for text in ["0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"] {
            let valid = Array(text.utf8)
            #expect(Self.checked(valid) == Self.reference(valid))
            for place in valid.indices {
                for byte in UInt8.min...UInt8.max {
                    var changed = valid
                    changed[place] = byte
                    #expect(Self.checked(changed) == Self.reference(changed), "byte \(byte) at \(place) of \(text)")
                }
            }
        }
    }

    @Test func textsOfOtherLengthsAndMixedCaseAreJudgedAsTheRuleSays() {
        let valid = Array("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0".utf8)
        for length in [0, 1, 35, 37, 72] {
            let bytes = Array((valid + valid).prefix(length))
            #expect(Self.checked(bytes) == nil, "\(length) bytes")
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = UUID().uuidString.utf8.map { byte in
                Bool.random(using: &random) ? byte : (Character(UnicodeScalar(byte)).lowercased().utf8.first ?? byte)
            }
            #expect(Self.checked(bytes) == Self.reference(bytes))
            #expect(
                GlobalID(String(decoding: bytes, as: UTF8.self))?.description
                    == String(decoding: bytes, as: UTF8.self).lowercased())
        }
    }
}
