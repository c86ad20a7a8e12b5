import Foundation

/// A hybrid logical clock reading: wall time in milliseconds, a counter for events within the
/// same millisecond (or when the wall clock lags behind what was seen), and the peer that made
/// it as the final tie-break. Ordered as that tuple, so every peer orders changes the same way,
/// and a peer whose clock runs fast cannot win forever: others adopt its wall time and count on.
///
/// Its text form sorts like the clock: `"0001800000000123.000004.<peer>"`.
public struct HLC: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let wall: Int64
    public let counter: Int32
    public let peer: String

    public init(wall: Int64, counter: Int32, peer: String) {
        self.wall = wall
        self.counter = counter
        self.peer = peer
    }

    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        (lhs.wall, lhs.counter, lhs.peer) < (rhs.wall, rhs.counter, rhs.peer)
    }

    public var description: String {
        let wallText = String(wall)
        let counterText = String(counter)
        return String(repeating: "0", count: max(0, 16 - wallText.count)) + wallText + "."
            + String(repeating: "0", count: max(0, 6 - counterText.count)) + counterText + "." + peer
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let wall = Int64(parts[0]), let counter = Int32(parts[1]), !parts[2].isEmpty else { return nil }
        self.init(wall: wall, counter: counter, peer: String(parts[2]))
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let clock = HLC(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a clock reading: \(text)")
        }
        self = clock
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Whether `name` may name a peer: 1 to 64 ASCII letters, digits, `-` or `_` (peer IDs are
    /// lowercase UUIDs). Peer names become folder names and parts of stored clock texts, so
    /// nothing else is accepted from a file.
    public static func isPeerName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// The reading for a local event after `last`, at wall time `now`. A counter at its largest
    /// moves on to the next millisecond rather than overflowing.
    public static func next(after last: HLC?, now: Date, peer: String) -> HLC {
        let seconds = now.timeIntervalSince1970
        let millis = seconds.isFinite ? Int64(max(0, min(seconds, 1e13)) * 1000) : 0
        guard let last, last.wall >= millis else { return HLC(wall: millis, counter: 0, peer: peer) }
        guard last.counter < Int32.max else { return HLC(wall: min(last.wall, Int64.max - 1) + 1, counter: 0, peer: peer) }
        return HLC(wall: last.wall, counter: last.counter + 1, peer: peer)
    }

    /// The local clock after seeing a remote reading: never behind anything seen.
    public static func merged(_ local: HLC?, seen remote: HLC, peer: String) -> HLC {
        guard let local, local >= HLC(wall: remote.wall, counter: remote.counter, peer: peer) else {
            return HLC(wall: remote.wall, counter: remote.counter, peer: peer)
        }
        return local
    }
}
