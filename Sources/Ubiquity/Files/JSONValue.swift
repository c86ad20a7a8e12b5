import Foundation

/// A parsed JSON document, numbers kept as their text so that they convert exactly
/// (`Double("0.30000000000000004")` is that double; Foundation's `JSONSerialization` on Linux
/// rounds some of them through decimals).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    struct ParseError: Error, Equatable {
        let offset: Int
        let reason: String
    }

    /// Parses a whole document; anything but white space after it is an error.
    /// The character a one-letter JSON escape stands for (`\n`, `\"`, …); nil for `\u`, which
    /// four hexadecimal digits follow, and for anything else (a bad escape). Both readers of
    /// JSON (this parser and ``JSONScanner``) use it.
    static func unescaped(_ escape: UInt8) -> Unicode.Scalar? {
        switch escape {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{8}"
        case UInt8(ascii: "f"): "\u{C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }

    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.offset == parser.bytes.count else { throw parser.error("text after the document") }
            return value
        }
    }

    /// Parses one value at `offset` as ``parse(_:)`` parses it `depth` levels into a document,
    /// and moves `offset` past it: whether it is well formed. What ``JSONScanner`` does with the
    /// value of a key it does not know, so that such a value is refused exactly when it is here.
    static func skipValue(in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int, depth: Int) -> Bool {
        var parser = Parser(bytes: bytes)
        parser.offset = offset
        guard (try? parser.value(depth: depth)) != nil else { return false }
        offset = parser.offset
        return true
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ reason: String) -> ParseError { ParseError(offset: offset, reason: reason) }

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ literal: String) throws {
            for byte in literal.utf8 {
                guard offset < bytes.count, bytes[offset] == byte else { throw error("expected \(literal)") }
                offset += 1
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 64 else { throw error("nested too deeply") }
            skipSpace()
            guard offset < bytes.count else { throw error("unexpected end") }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                var fields: [String: JSONValue] = [:]
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(fields)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    fields[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard offset < bytes.count else { throw error("unexpected end in an object") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    try expect("}")
                    return .object(fields)
                }
            case UInt8(ascii: "["):
                offset += 1
                var items: [JSONValue] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(items)
                }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard offset < bytes.count else { throw error("unexpected end in an array") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                let start = offset
                while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
                guard offset > start else { throw error("unexpected character") }
                return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
            }
        }

        mutating func string() throws -> String {
            try expect("\"")
            // Most strings (every ID, name and reading) hold no escape: decoded in one step
            // from their bytes, as the loop below would decode their one run.
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    offset += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset - 1]), as: UTF8.self)
                }
                if byte < 0x20 || byte == UInt8(ascii: "\\") { break }
                offset += 1
            }
            offset = start
            var scalars = String.UnicodeScalarView()
            var runStart = offset
            func flush(_ end: Int) {
                if end > runStart {
                    scalars.append(
                        contentsOf: String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self
                        ).unicodeScalars)
                }
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    flush(offset)
                    offset += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw error("a control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    offset += 1
                    continue
                }
                flush(offset)
                offset += 1
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                if let character = JSONValue.unescaped(escape) {
                    scalars.append(character)
                } else if escape == UInt8(ascii: "u") {
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate") }
                    scalars.append(scalar)
                } else {
                    throw error("a bad escape")
                }
                runStart = offset
            }
            throw error("an unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard offset + 4 <= bytes.count,
                let code = UInt32(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self),
                    radix: 16)
            else { throw error("a bad \\u escape") }
            offset += 4
            return code
        }
    }
}
