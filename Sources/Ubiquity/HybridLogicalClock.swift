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

    /// The reading for a local event after `last`, at wall time `now`.
    public static func next(after last: HLC?, now: Date, peer: String) -> HLC {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        guard let last, last.wall >= millis else { return HLC(wall: millis, counter: 0, peer: peer) }
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
