import Foundation

/// A hybrid logical clock reading: wall time in milliseconds, a counter for events within the
/// same millisecond (or when the wall clock lags behind what was seen), and the peer that made
/// it as the final tie-break. Ordered as that tuple and nothing else, so every peer orders
/// changes the same way whatever its own clock says. How far a reading seen may move this
/// device's clock is ``LocalClock``'s business.
///
/// Its text form, `"0001800000000123.000004.<peer>"`, sorts like the clock only while the
/// counter has six digits or fewer: compare readings, not texts.
public struct HLC: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// How far ahead of this device's wall clock a time told by another device is believed
    /// (the same bound as clock readings'): an app's own dates from the cloud folder use it too.
    public static let trustedAhead: TimeInterval = LocalClock.trustedAhead

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

    /// `0001800000000123.000007.peer`: the wall clock in at least 16 digits, the counter in at
    /// least 6, the peer. Written into one string's bytes (every save writes readings, and five
    /// strings joined were a tenth of writing its record).
    public var description: String {
        guard wall >= 0, counter >= 0 else {
            // Only a reading read from a hostile file is negative: written as it always was.
            let wallText = String(wall)
            let counterText = String(counter)
            return String(repeating: "0", count: max(0, 16 - wallText.count)) + wallText + "."
                + String(repeating: "0", count: max(0, 6 - counterText.count)) + counterText + "." + peer
        }
        var peer = peer
        return peer.withUTF8 { peerBytes in
            String(unsafeUninitializedCapacity: 19 + 1 + 10 + 1 + peerBytes.count) { text in
                var position = 0
                func write(_ value: UInt64, width: Int) {
                    var digits = 1
                    var rest = value / 10
                    while rest > 0 {
                        digits += 1
                        rest /= 10
                    }
                    var remaining = value
                    for index in (position..<position + max(width, digits)).reversed() {
                        text[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                        remaining /= 10
                    }
                    position += max(width, digits)
                }
                write(UInt64(wall), width: 16)
                text[position] = UInt8(ascii: ".")
                position += 1
                write(UInt64(counter), width: 6)
                text[position] = UInt8(ascii: ".")
                position += 1
                for byte in peerBytes {
                    text[position] = byte
                    position += 1
                }
                return position
            }
        }
    }

    /// A reading as a store holds it: read from its bytes when it is in the form ``description``
    /// writes (``init(asciiBytes:)``), else from its text (``init(_:)``, which decides).
    init?(stored text: String) {
        var text = text
        if let reading = text.withUTF8({ HLC(asciiBytes: $0) }) {
            self = reading
        } else {
            self.init(text)
        }
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let wall = Int64(parts[0]), let counter = Int32(parts[1]), !parts[2].isEmpty else {
            return nil
        }
        self.init(wall: wall, counter: counter, peer: String(parts[2]))
    }

    /// Reads the text form from its bytes when it is in the form ``description`` writes: ASCII,
    /// digits (at most 18, then 9) before each of the first two dots. `nil` means only "not
    /// read this way": the caller reads the text with ``init(_:)``, which decides. Splitting the
    /// text into `Character`s was half of reading a baseline's clocks.
    init?(asciiBytes bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        /// The decimal number up to the next dot, of 1 to `limit` digits; `index` left on the dot.
        func number(atMost limit: Int) -> Int64? {
            var value: Int64 = 0
            var digits = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: ".") {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10, digits < limit else { return nil }
                value = value * 10 + Int64(digit)
                digits += 1
                index += 1
            }
            return digits > 0 && index < bytes.count ? value : nil
        }
        guard let wall = number(atMost: 18) else { return nil }
        index += 1
        guard let counter = number(atMost: 9), index + 1 < bytes.count else { return nil }
        let peer = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
        guard peer.isASCII else { return nil }
        self.init(wall: wall, counter: Int32(counter), peer: String(decoding: peer, as: UTF8.self))
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
    ///
    /// Read from the name's bytes in one loop (an import asks it of every peer folder at every
    /// import: 2,000 departed devices' folders cost 3.2M instructions through `UTF8View`).
    public static func isPeerName(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable(isPeerName(bytes:)) ?? isPeerName(bytes: Array(name.utf8))
    }

    /// The same, of a name's UTF-8 bytes (a folder's name as `readdir` gave it).
    static func isPeerName<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// The largest wall time a reading may hold: the last millisecond of 9999, as for dates.
    public static let maximumWall = Int64(ValueRule.dateRange.upperBound * 1000)

    /// The reading for a local event after `last`, at wall time `now`, or `nil` when no reading
    /// that peers accept comes after `last` (it is the last millisecond of 9999 with the
    /// largest counter: only a hostile file holds that).
    ///
    /// A wall clock before 1970 reads as 1970, one after 9999 as the end of 9999: every reading
    /// made here is one that peers accept. A counter at its largest moves on to the next
    /// millisecond rather than overflowing.
    public static func next(after last: HLC?, now: Date, peer: String) -> HLC? {
        let seconds = now.timeIntervalSince1970
        let millis = seconds.isFinite ? Int64(max(0, min(seconds * 1000, Double(maximumWall)))) : 0
        guard let last, last.wall >= millis else { return HLC(wall: millis, counter: 0, peer: peer) }
        if last.counter < Int32.max { return HLC(wall: last.wall, counter: last.counter + 1, peer: peer) }
        guard last.wall < maximumWall else { return nil }
        return HLC(wall: last.wall + 1, counter: 0, peer: peer)
    }

    /// The local clock after seeing a remote reading: never behind anything seen.
    public static func merged(_ local: HLC?, seen remote: HLC, peer: String) -> HLC {
        guard let local, local >= HLC(wall: remote.wall, counter: remote.counter, peer: peer) else {
            return HLC(wall: remote.wall, counter: remote.counter, peer: peer)
        }
        return local
    }
}
