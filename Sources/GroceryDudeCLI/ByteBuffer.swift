/// Output made of many small pieces — the cells of a table's line, the keys and values of a
/// JSON object — appended to memory of its own: an append is a capacity check and a copy.
///
/// Appending each piece to a `[UInt8]` costs about ninety instructions whatever its length (the
/// array's uniqueness and capacity checks, a retain and release of the piece appended): for
/// `item ls` on 10k items that was most of the command's own work.
struct ByteBuffer: ~Copyable {
    private var storage: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes it holds.
    private(set) var count = 0

    init(capacity: Int = 256) {
        storage = .allocate(capacity: max(capacity, 16))
    }

    deinit { storage.deallocate() }

    /// The bytes it holds, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: storage[..<count]) }

    /// A copy of the bytes it holds.
    var array: [UInt8] { Array(bytes) }

    /// Copies `bytes` in with one `memcpy`, not through a slice of the storage initialized from
    /// them, whose bounds were checked again at every piece appended (docs/decisions/0182).
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        append(source, count: bytes.count)
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, count more: Int) {
        reserve(more)
        (storage.baseAddress! + count).initialize(from: source, count: more)
        count += more
    }

    /// Text the program holds as a literal (a JSON key, `null`): copied from where it lies, with
    /// no array made or retained for it.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        if text.hasPointerRepresentation {
            append(text.utf8Start, count: text.utf8CodeUnitCount)
        } else {
            text.withUTF8Buffer { append($0) }  // a literal of one character may be held as its scalar
        }
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// `count` bytes that `write` writes in place (all of them), at the end.
    @inline(__always)
    mutating func append(count more: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(more)
        write(storage.baseAddress! + count)
        count += more
    }

    @inline(__always)
    mutating func append(repeating byte: UInt8, count repeated: Int) {
        guard repeated > 0 else { return }
        reserve(repeated)
        UnsafeMutableBufferPointer(rebasing: storage[count..<count + repeated]).initialize(repeating: byte)
        count += repeated
    }

    /// Makes room for `capacity` bytes in all, so that appends up to there allocate nothing.
    mutating func reserveCapacity(_ capacity: Int) { reserve(capacity - count) }

    /// Empties it, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// Makes room for `more` bytes (checked at every append: kept inline, the growing apart).
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count + more > storage.count { grow(toHold: count + more) }
    }

    /// Doubles the memory, or more if `total` needs more.
    private mutating func grow(toHold total: Int) {
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(storage.count * 2, total))
        _ = larger.initialize(fromContentsOf: storage[..<count])
        storage.deallocate()
        storage = larger
    }
}
