import Foundation

/// CRC-32 (IEEE 802.3, as zlib): the checksum of a log's payload, to tell a damaged or
/// half-written file from a good one.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        finish(update(initial, bytes))
    }

    // MARK: - Streaming: initial, update per chunk, finish

    static let initial: UInt32 = 0xFFFF_FFFF

    static func update<Bytes: Sequence>(_ crc: UInt32, _ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc = crc
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc
    }

    /// Bytes of `Data` read from its buffer: through `Data`'s iterator, a byte at a time, the
    /// checksum was a tenth of reading a log.
    static func update(_ crc: UInt32, _ data: Data) -> UInt32 {
        data.withUnsafeBytes { update(crc, $0) }
    }

    public static func checksum(_ data: Data) -> UInt32 { finish(update(initial, data)) }

    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }
}
