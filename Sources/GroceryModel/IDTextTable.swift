import Foundation

/// Values found by the stored text of an ID, read where SQLite holds it
/// (`GlobalID.textBytes`): a listing of 10k or 100k items points at a few dozen units and
/// locations, and making a string of every row's link (then hashing it) was a sixth of reading
/// the rows. Kept under an FNV-1a hash of the text and compared byte for byte.
///
/// A miss says only "not found this way": of two different texts that hash alike the first is
/// kept, and callers look a miss up again the slow way (a string or an ID made from the bytes),
/// so the answer is the same in every case. A text inserted again replaces its value, as a
/// dictionary's would.
struct IDTextTable<Value> {
    private var entries: [UInt64: (text: [UInt8], value: Value)] = [:]

    mutating func insert(_ text: String, _ value: Value) {
        let bytes = Array(text.utf8)
        let hash = bytes.withUnsafeBufferPointer(Self.hash)
        if let kept = entries[hash], kept.text != bytes { return }
        entries[hash] = (bytes, value)
    }

    /// The value whose text is exactly `bytes`, if it was found this way.
    func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let entry = entries[Self.hash(bytes)], entry.text.count == bytes.count,
              entry.text.withUnsafeBufferPointer({ text in
                  // memcmp, not `elementsEqual`: the generic comparison was a tenth of reading 10k rows.
                  bytes.isEmpty || memcmp(text.baseAddress!, bytes.baseAddress!, bytes.count) == 0
              }) else { return nil }
        return entry.value
    }

    /// FNV-1a over the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
