/// SHA-256 (FIPS 180-4), for content-addressed blob names, store digests and derived IDs.
/// Foundation on Linux has no digest API, and one hash does not justify a crypto package.
public enum SHA256 {
    /// The round constants (FIPS 180-4, 4.2.2).
    static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest as 64 lowercase hex digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        let digest = digest(bytes)
        return String(unsafeUninitializedCapacity: 64) { text in
            for (index, byte) in digest.enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    /// Bytes held contiguously (an array, a slice, `Data`) are read where they are; others are
    /// copied once.
    public static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(UnsafeRawBufferPointer($0)) }) { return digest }
        return Array(bytes).withUnsafeBytes { digest($0) }
    }

    /// The message's 64-byte blocks are compressed where they lie; only the last one or two,
    /// with the padding and the length, are copied. (The first version copied the whole
    /// message to pad it, and checked every array access: the digest of a store — `cloud
    /// verify` — spent a quarter of its time here.)
    static func digest(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                let whole = message.count / 64 * 64
                var offset = 0
                while offset < whole {
                    compress(UnsafeRawBufferPointer(rebasing: message[offset..<(offset + 64)]), &h, w, k)
                    offset += 64
                }
                // The rest, 0x80, zeros, and the length in bits: one block, or two when the
                // rest leaves no room for the length.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                    let rest = message.count - whole
                    let blocks = rest < 56 ? 1 : 2
                    tail.initialize(repeating: 0)
                    for index in 0..<rest { tail[index] = message[whole + index] }
                    tail[rest] = 0x80
                    let bits = UInt64(message.count) &* 8
                    for index in 0..<8 {
                        tail[blocks * 64 - 1 - index] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * index))
                    }
                    let padded = UnsafeRawBufferPointer(tail)
                    for block in 0..<blocks {
                        compress(UnsafeRawBufferPointer(rebasing: padded[(block * 64)..<(block * 64 + 64)]), &h, w, k)
                    }
                }
            }
        }
        var result = [UInt8]()
        result.reserveCapacity(32)
        for value in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
            for shift in stride(from: 24, through: 0, by: -8) {
                result.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        return result
    }

    /// One 64-byte block into the state (FIPS 180-4, 6.2.2).
    @inline(__always)
    private static func compress(
        _ block: UnsafeRawBufferPointer, _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ w: UnsafeMutableBufferPointer<UInt32>, _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
        for i in 16..<64 {
            let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        for i in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
