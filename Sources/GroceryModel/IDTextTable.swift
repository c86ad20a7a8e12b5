import Foundation

/// Values found by the stored text of an ID, read where SQLite holds it
/// (`GlobalID.textBytes`): a listing of 10k or 100k items points at a few dozen units and
/// locations, and making a string of every row's link (then hashing it) was a sixth of reading
/// the rows. Compared byte for byte.
///
/// An open-addressed table of its own, not a `Dictionary`: with an FNV hash over every byte and
/// the dictionary hashing that hash again, three lookups a row were two fifths of reading 10k
/// items for `item ls`. An ID's text is hashed from its first and last 8 bytes, which are random
/// in every ID a device makes; IDs made to share them (a hostile store) only make lookups probe
/// further, through a table of a few dozen entries.
///
/// A miss says only "not found this way": callers look a miss up again the slow way (a string
/// or an ID made from the bytes), so the answer is the same in every case. A text inserted
/// again replaces its value, as a dictionary's would.
struct IDTextTable<Value> {
    private var entries: [(text: [UInt8], hash: UInt64, value: Value)] = []
    /// Positions in `entries` plus one, 0 for an empty slot; a power of two long, at least
    /// twice as long as `entries`.
    private var slots = [Int32](repeating: 0, count: 16)

    mutating func insert(_ text: String, _ value: Value) {
        let bytes = Array(text.utf8)
        let hash = bytes.withUnsafeBufferPointer(Self.hash)
        if let found = bytes.withUnsafeBufferPointer({ position($0, hash: hash) }) {
            entries[found].value = value
            return
        }
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append((bytes, hash, value))
        place(entries.count - 1)
    }

    /// The value whose text is exactly `bytes`, if it was found this way.
    func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        position(bytes, hash: Self.hash(bytes)).map { entries[$0].value }
    }

    private func position(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if entries[position].hash == hash, entries[position].text.count == bytes.count,
                entries[position].text.withUnsafeBufferPointer({ text in
                    // memcmp, not `elementsEqual`: the generic comparison was a tenth of reading 10k rows.
                    bytes.isEmpty || memcmp(text.baseAddress!, bytes.baseAddress!, bytes.count) == 0
                })
            {
                return position
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ position: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[position].hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position + 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for position in entries.indices { place(position) }
    }

    /// An ID's text (16 bytes or more) from its first and last 8 bytes, mixed; a shorter text
    /// by FNV-1a over its bytes.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard bytes.count >= 16 else {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        let raw = UnsafeRawBufferPointer(bytes)
        let first = raw.loadUnaligned(as: UInt64.self)
        let last = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        var hash = (first ^ (last &* 0x9E37_79B9_7F4A_7C15)) &+ UInt64(bytes.count)
        // A final mix (SplitMix64's), so that the low bits the slots use depend on every byte read.
        hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}
