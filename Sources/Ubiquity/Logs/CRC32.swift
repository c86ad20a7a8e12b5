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

    /// The same checksum eight bytes a step ("slicing by 8"): `slices[k]` gives the CRC of a
    /// byte followed by `k` zero bytes, so eight lookups replace eight dependent steps. A log
    /// of 2,500 items is ~510 kB: a byte at a time, its checksum was 2 % of an import.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        var offset = 0
        let count = bytes.count
        slices.withUnsafeBufferPointer { slices in
            let t = slices.baseAddress!
            while count - offset >= 8 {
                let one = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
                let two = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                crc =
                    t[7 * 256 + Int(one & 0xFF)] ^ t[6 * 256 + Int((one >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((one >> 16) & 0xFF)] ^ t[4 * 256 + Int(one >> 24)]
                    ^ t[3 * 256 + Int(two & 0xFF)] ^ t[2 * 256 + Int((two >> 8) & 0xFF)]
                    ^ t[256 + Int((two >> 16) & 0xFF)] ^ t[Int(two >> 24)]
                offset += 8
            }
            while offset < count {
                crc = t[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
        }
        return crc
    }

    /// Eight tables of 256, one after the other: the first is ``table``; each next one is the
    /// previous advanced by one zero byte.
    private static let slices: [UInt32] = {
        var slices = table + [UInt32](repeating: 0, count: 7 * 256)
        for k in 1..<8 {
            for index in 0..<256 {
                let previous = slices[(k - 1) * 256 + index]
                slices[k * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return slices
    }()

    public static func checksum(_ data: Data) -> UInt32 { finish(update(initial, data)) }

    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }
}
