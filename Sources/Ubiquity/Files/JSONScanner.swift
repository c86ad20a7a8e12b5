import Foundation

/// A pull-style reader over a JSON document's UTF-8 bytes: the caller asks for what it expects
/// next (an object's members, an array's items, a string, a number) and builds its own value
/// from them, with no tree in between. Reading a record through ``JSONValue`` built a dictionary
/// for every property value (half a million for an import of 500k changes); this builds none.
///
/// It never explains a failure: every method answers `nil` or `false` on anything it does not
/// take, and the caller then reads the same bytes again the slow way (``JSONValue`` or
/// Foundation's decoder), which says what is wrong in the words it always used. So it only ever
/// accepts a subset of what that slower reader accepts, read to the same value.
struct JSONScanner {
    /// Which slower reader the scanner stands in for: what it must refuse so that reader decides.
    enum Dialect {
        /// As ``JSONValue`` reads: numbers are any run of `+-0123456789.eE` that Swift converts,
        /// invalid UTF-8 reads as U+FFFD, values under unknown keys are parsed and dropped.
        case records
        /// Strict JSON, as Foundation's `JSONDecoder` reads it. Anything it might read otherwise
        /// or refuse (invalid UTF-8, a number outside JSON's grammar, an unknown or repeated key)
        /// is left to it.
        case foundation
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let dialect: Dialect
    var offset = 0
    /// How many properties the last object's values had: the next object's dictionary is made
    /// that large at once (a log's objects are mostly of one entity), not grown from empty.
    var propertyCountHint = 0
    /// The most entries a dictionary is made room for before its members are read: what a file
    /// says it holds (a hostile one: thousands) is only a hint.
    static let largestRoom = 64

    init(bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) {
        self.bytes = bytes
        self.dialect = dialect
    }

    /// Runs `read` over `data`'s bytes; its answer counts only if nothing but white space follows.
    static func read<T>(_ data: Data, dialect: Dialect, _ read: (inout JSONScanner) -> T?) -> T? {
        data.withUnsafeBytes { raw in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self), dialect: dialect)
            guard let value = read(&scanner) else { return nil }
            scanner.skipSpace()
            return scanner.offset == scanner.bytes.count ? value : nil
        }
    }

    // MARK: - Structure

    @inline(__always)
    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// The next byte that is not white space, not consumed.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipSpace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    /// Consumes `byte` if it comes next (after white space).
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        offset += 1
        return true
    }

    /// Reads an object, calling `member` with each key once the scanner stands before its value;
    /// `member` reads the value and answers whether it took it.
    mutating func object(_ member: (inout JSONScanner, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = string(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }

    /// Reads an array, calling `item` for each item; `item` answers whether it took it.
    mutating func array(_ item: (inout JSONScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        while true {
            guard item(&self) else { return false }
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
        }
    }

    /// Reads and drops the value under a key the caller does not know, which stands `depth`
    /// levels below the document (the document itself is 0). Records parse it as ``JSONValue``
    /// does, so what is refused there (too deep, malformed) is refused here; for Foundation's
    /// reader an unknown key is left to it.
    mutating func skipUnknown(depth: Int) -> Bool {
        guard dialect == .records else { return false }
        skipSpace()
        return JSONValue.skipValue(in: bytes, at: &offset, depth: depth)
    }

    // MARK: - Scalars

    /// `null`, if it comes next.
    mutating func null() -> Bool {
        guard peek() == UInt8(ascii: "n"), offset + 4 <= bytes.count,
            bytes[offset + 1] == UInt8(ascii: "u"), bytes[offset + 2] == UInt8(ascii: "l"),
            bytes[offset + 3] == UInt8(ascii: "l")
        else { return false }
        offset += 4
        return true
    }

    mutating func bool() -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"):
            guard offset + 4 <= bytes.count, bytes[offset + 1] == UInt8(ascii: "r"),
                bytes[offset + 2] == UInt8(ascii: "u"),
                bytes[offset + 3] == UInt8(ascii: "e")
            else { return nil }
            offset += 4
            return true
        case UInt8(ascii: "f"):
            guard offset + 5 <= bytes.count, bytes[offset + 1] == UInt8(ascii: "a"),
                bytes[offset + 2] == UInt8(ascii: "l"),
                bytes[offset + 3] == UInt8(ascii: "s"), bytes[offset + 4] == UInt8(ascii: "e")
            else { return nil }
            offset += 5
            return false
        default: return nil
        }
    }

    /// A finite number, converted by Swift from its text (`Double("0.30000000000000004")` is that
    /// double, exactly).
    mutating func double() -> Double? {
        guard let text = numberText() else { return nil }
        // Integers of up to 15 digits are exact doubles: no conversion of text needed.
        if let integer = Self.smallInteger(text, maximumDigits: 15), integer != 0 || text[0] != UInt8(ascii: "-") {
            return Double(integer)
        }
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isFinite else { return nil }
        return number
    }

    /// An integer that fits in 64 bits, as `Int64(text)` reads it.
    mutating func int64() -> Int64? {
        guard let text = numberText() else { return nil }
        if let integer = Self.smallInteger(text, maximumDigits: 18) { return integer }
        if dialect == .foundation, text.contains(where: { !(0x30...0x39).contains($0) && $0 != UInt8(ascii: "-") }) {
            return nil
        }
        return Int64(String(decoding: text, as: UTF8.self))
    }

    /// The text of a number: what ``JSONValue`` takes as one for records, JSON's grammar for
    /// Foundation's reader.
    private mutating func numberText() -> UnsafeBufferPointer<UInt8>? {
        skipSpace()
        let start = offset
        switch dialect {
        case .records:
            while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                    UInt8(ascii: "e"), UInt8(ascii: "E"):
                    offset += 1
                default:
                    return offset > start ? UnsafeBufferPointer(rebasing: bytes[start..<offset]) : nil
                }
            }
            return offset > start ? UnsafeBufferPointer(rebasing: bytes[start..<offset]) : nil
        case .foundation:
            // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
            _ = takeByte(UInt8(ascii: "-"))
            guard offset < bytes.count else { return nil }
            if bytes[offset] == UInt8(ascii: "0") {
                offset += 1
            } else {
                guard digits() > 0 else { return nil }
            }
            if takeByte(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
            if takeByte(UInt8(ascii: "e")) || takeByte(UInt8(ascii: "E")) {
                _ = takeByte(UInt8(ascii: "+")) || takeByte(UInt8(ascii: "-"))
                guard digits() > 0 else { return nil }
            }
            return UnsafeBufferPointer(rebasing: bytes[start..<offset])
        }
    }

    private mutating func takeByte(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        return offset - start
    }

    /// `text` as an integer when it is an optional `-` and 1 to `maximumDigits` digits (no
    /// overflow possible below 19), which is what converting its text would give.
    @inline(__always)
    private static func smallInteger(_ text: UnsafeBufferPointer<UInt8>, maximumDigits: Int) -> Int64? {
        let negative = text[0] == UInt8(ascii: "-")
        let first = negative ? 1 : 0
        guard text.count > first, text.count - first <= maximumDigits else { return nil }
        var value: Int64 = 0
        for index in first..<text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
        }
        return negative ? -value : value
    }

    /// A string. One without escapes (every ID, name and reading) is decoded in one step from its
    /// bytes; one with escapes run by run between them, as ``JSONValue`` decodes it.
    mutating func string() -> String? {
        if let plain = plainStringRange() { return text(plain) }
        guard take(UInt8(ascii: "\"")) else { return nil }
        return escapedString()
    }

    /// The bytes of a string that holds no escape and no control character, not decoded (nor
    /// checked as UTF-8); `nil`, with nothing consumed, for any other value.
    mutating func plainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        plainStringRange().map { UnsafeBufferPointer(rebasing: bytes[$0]) }
    }

    /// Where the contents of a string without escapes or control characters lie, the scanner past
    /// its closing quote; `nil`, with nothing consumed, for any other value.
    private mutating func plainStringRange() -> Range<Int>? {
        skipSpace()
        let before = offset
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return start..<offset - 1
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { break }
            offset += 1
        }
        offset = before
        return nil
    }

    private mutating func escapedString() -> String? {
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") {
                guard byte >= 0x20 else { return nil }
                offset += 1
                continue
            }
            if offset > runStart {
                guard let run = text(runStart..<offset) else { return nil }
                scalars.append(contentsOf: run.unicodeScalars)
            }
            offset += 1
            if byte == UInt8(ascii: "\"") { return String(scalars) }
            guard offset < bytes.count else { return nil }
            let escape = bytes[offset]
            offset += 1
            if let character = JSONValue.unescaped(escape) {
                scalars.append(character)
            } else if escape == UInt8(ascii: "u") {
                guard var code = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(code) {
                    guard takeByte(UInt8(ascii: "\\")), takeByte(UInt8(ascii: "u")), let low = hex4(),
                        (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(scalar)
            } else {
                return nil
            }
            runStart = offset
        }
        return nil
    }

    /// Exactly four hexadecimal digits.
    private mutating func hex4() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
            offset += 1
        }
        return code
    }

    /// Bytes of a string as text: repaired as ``JSONValue`` does for records, refused when not
    /// UTF-8 for Foundation's reader.
    @inline(__always)
    private func text(_ range: Range<Int>) -> String? {
        let run = UnsafeBufferPointer(rebasing: bytes[range])
        switch dialect {
        case .records: return String(decoding: run, as: UTF8.self)
        case .foundation: return String(validating: run, as: UTF8.self)
        }
    }
}
