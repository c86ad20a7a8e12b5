import Foundation

/// A reader of well-formed XML 1.0 for files of data, on UTF-8 bytes checked already
/// (`UTF8Text.check`): elements, attributes, character references and the five predefined
/// entities, comments, processing instructions, CDATA sections and text (whose content is
/// skipped: the formats read with it keep their data in attributes).
///
/// A document type declaration (`<!DOCTYPE …>`) is refused: no entity is ever defined or
/// expanded, so no file can make the reader expand text without bound or read another file.
/// Anything else XML does not allow is refused too, with the line and what is wrong — the first
/// fault only, nothing read past it.
///
/// Each start tag is handed to `element` as it is read, with its depth (1 for the root);
/// `element` may throw (``Failure`` or another error) to stop the reading. Nothing recurses:
/// the open elements are a list, so nesting costs no stack.
enum StrictXML {
    struct Element {
        let name: String
        let attributes: [String: String]
        /// 1 for the root, 2 for its children, and so on.
        let depth: Int
        /// The line of its `<`, from 1.
        let line: Int
    }

    struct Failure: Error, Equatable {
        let line: Int
        let reason: String
    }

    static func parse(_ bytes: [UInt8], element: (Element) throws -> Void) throws {
        var reader = Reader(bytes: bytes)
        try reader.document(element)
    }
}

private struct Reader {
    let bytes: [UInt8]
    private var position = 0
    /// Lines counted up to `counted` (positions only move forward).
    private var line = 1
    private var counted = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: - The document

    mutating func document(_ element: (StrictXML.Element) throws -> Void) throws {
        if starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }  // a byte order mark
        if starts(with: "<?xml") && position + 5 < bytes.count && isSpace(bytes[position + 5]) {
            try skip(past: "?>", what: "the XML declaration")
        }
        // Before the root: nothing but white space, comments and processing instructions.
        try skipMisc()
        guard position < bytes.count else { return }  // no element at all: the caller says so
        if starts(with: "<!DOCTYPE") {
            throw failure("a document type declaration (<!DOCTYPE …>) is not read: a file of this format has none")
        }
        guard starts(with: "<"), position + 1 < bytes.count, Self.isNameByte(bytes[position + 1], first: true) else {
            throw failure("not well-formed XML: something other than an element before the first element")
        }
        let (root, empty) = try startTag(depth: 1, element)
        if !empty { try content(of: root, element) }
        // After the root: the same.
        try skipMisc()
        if position < bytes.count { throw failure("not well-formed XML: content after the last element is closed") }
    }

    /// White space, comments and processing instructions, outside the root element.
    private mutating func skipMisc() throws {
        while position < bytes.count {
            if isSpace(bytes[position]) {
                position += 1
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<?") {
                try processingInstruction()
            } else {
                return
            }
        }
    }

    /// What the root element holds, from after its start tag to after its end tag.
    private mutating func content(of root: String, _ element: (StrictXML.Element) throws -> Void) throws {
        var open = [root]
        repeat {
            guard let innermost = open.last, position < bytes.count else {
                throw failure("not well-formed XML: the file ends before </\(open.last ?? root)> (cut off?)")
            }
            let byte = bytes[position]
            if byte != UInt8(ascii: "<") {
                try text()
            } else if starts(with: "</") {
                let line = lineHere()
                position += 2
                let name = try self.name(what: "an end tag")
                skipSpaces()
                try expect(">", what: "the end tag </\(name)>")
                guard name == innermost else {
                    throw StrictXML.Failure(line: line, reason: "not well-formed XML: </\(name)> closes <\(innermost)>")
                }
                open.removeLast()
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<![CDATA[") {
                position += 9
                try skip(past: "]]>", what: "a CDATA section")
            } else if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!") {
                throw failure("not well-formed XML: a declaration (<!…) inside an element")
            } else {
                let (name, empty) = try startTag(depth: open.count + 1, element)
                if !empty { open.append(name) }
            }
        } while !open.isEmpty
    }

    /// A start or empty-element tag, from its `<`: handed to `element`; whether it was empty.
    private mutating func startTag(depth: Int, _ element: (StrictXML.Element) throws -> Void) throws -> (String, Bool) {
        let line = lineHere()
        position += 1
        let name = try self.name(what: "a tag")
        var attributes: [String: String] = [:]
        while true {
            let spaced = skipSpaces()
            guard position < bytes.count else {
                throw failure("not well-formed XML: the file ends inside the tag <\(name)>")
            }
            if starts(with: "/>") {
                position += 2
                try element(StrictXML.Element(name: name, attributes: attributes, depth: depth, line: line))
                return (name, true)
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                try element(StrictXML.Element(name: name, attributes: attributes, depth: depth, line: line))
                return (name, false)
            }
            guard spaced else {
                throw failure("not well-formed XML: a bad attribute in <\(name)> (no space before it)")
            }
            let attribute = try self.name(what: "an attribute of <\(name)>")
            skipSpaces()
            try expect("=", what: "the attribute \(attribute) of <\(name)>")
            skipSpaces()
            let value = try attributeValue(of: attribute)
            guard attributes.updateValue(value, forKey: attribute) == nil else {
                throw failure("not well-formed XML: <\(name)> has the attribute \(attribute) twice")
            }
        }
    }

    /// A quoted value, its references replaced and its white space made spaces, as XML says.
    private mutating func attributeValue(of attribute: String) throws -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else {
            throw failure("not well-formed XML: the value of \(attribute) is not quoted")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else {
                throw failure("not well-formed XML: the file ends inside the value of \(attribute)")
            }
            let byte = bytes[position]
            switch byte {
            case quote:
                position += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw failure("not well-formed XML: a < in the value of \(attribute) (write &lt;)")
            case UInt8(ascii: "&"):
                UTF8.encode(try reference()) { value.append($0) }
            case UInt8(ascii: "\r"):
                // A line end, CR LF or CR alone, is one space.
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "\n") { position += 1 }
                value.append(UInt8(ascii: " "))
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"):
                position += 1
                value.append(UInt8(ascii: " "))
            default:
                try checkCharacter()
                value.append(byte)
                position += 1
            }
        }
    }

    /// Text between tags, up to the next `<`: checked, not kept.
    private mutating func text() throws {
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                _ = try reference()
            } else if starts(with: "]]>") {
                throw failure("not well-formed XML: ]]> in text")
            } else {
                try checkCharacter()
                position += 1
            }
        }
    }

    // MARK: - Pieces

    /// `&lt;` and the other four, or `&#…;`, `&#x…;`, from the `&`.
    private mutating func reference() throws -> Unicode.Scalar {
        position += 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "#") {
            position += 1
            let hex = position < bytes.count && bytes[position] == UInt8(ascii: "x")
            if hex { position += 1 }
            var code: UInt32 = 0
            var digits = 0
            while position < bytes.count, let digit = Self.digit(bytes[position], hex: hex) {
                code = min(code * (hex ? 16 : 10) + digit, 0x11_0000)  // past Unicode stays past it
                digits += 1
                position += 1
            }
            guard digits > 0, position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
                throw failure("not well-formed XML: a bad character reference (&#…;)")
            }
            position += 1
            guard Self.isXMLCharacter(code), let scalar = Unicode.Scalar(code) else {
                throw failure("not well-formed XML: &#\(hex ? "x" : "")…; is not a character XML allows")
            }
            return scalar
        }
        let start = position
        while position < bytes.count, position - start < 8, Self.isNameByte(bytes[position], first: position == start) {
            position += 1
        }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            throw failure("not well-formed XML: a & that starts no reference (write &amp;)")
        }
        position += 1
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            throw failure(
                "not well-formed XML: the entity &\(name); is not defined (a file of this format defines none)")
        }
    }

    private mutating func name(what: String) throws -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], first: position == start) { position += 1 }
        guard position > start else { throw failure("not well-formed XML: \(what) without a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func comment() throws {
        position += 4
        while position < bytes.count {
            if starts(with: "--") {
                guard starts(with: "-->") else { throw failure("not well-formed XML: -- inside a comment") }
                position += 3
                return
            }
            try checkCharacter()
            position += 1
        }
        throw failure("not well-formed XML: the file ends inside a comment")
    }

    private mutating func processingInstruction() throws {
        position += 2
        let target = try name(what: "a processing instruction")
        guard target.lowercased() != "xml" else {
            throw failure("not well-formed XML: an XML declaration (<?xml …?>) after the file's start")
        }
        try skip(past: "?>", what: "the processing instruction <?\(target)")
    }

    /// Moves past the next `end`, checking every character on the way.
    private mutating func skip(past end: String, what: String) throws {
        let end = Array(end.utf8)
        while position < bytes.count {
            if starts(with: end) {
                position += end.count
                return
            }
            try checkCharacter()
            position += 1
        }
        throw failure("not well-formed XML: the file ends inside \(what)")
    }

    /// A control character other than tab, line feed and carriage return, U+FFFE or U+FFFF:
    /// characters XML does not allow, anywhere. The bytes are UTF-8 already.
    private mutating func checkCharacter() throws {
        let byte = bytes[position]
        if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
            throw failure("not well-formed XML: a control character (U+\(String(format: "%04X", byte)))")
        }
        if byte == 0xEF, position + 2 < bytes.count, bytes[position + 1] == 0xBF, bytes[position + 2] >= 0xBE {
            throw failure(
                "not well-formed XML: U+FFF\(bytes[position + 2] == 0xBE ? "E" : "F"), which is not a character")
        }
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = position
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        return position > start
    }

    private mutating func expect(_ text: String, what: String) throws {
        guard starts(with: text) else {
            throw failure("not well-formed XML: \(what) is not closed as it should be (\(text) expected)")
        }
        position += text.utf8.count
    }

    private func starts(with text: String) -> Bool { starts(with: Array(text.utf8)) }

    private func starts(with prefix: [UInt8]) -> Bool {
        guard bytes.count - position >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func lineHere() -> Int {
        while counted < min(position, bytes.count) {
            if bytes[counted] == UInt8(ascii: "\n") { line += 1 }
            counted += 1
        }
        return line
    }

    private mutating func failure(_ reason: String) -> StrictXML.Failure {
        StrictXML.Failure(line: lineHere(), reason: reason)
    }

    // MARK: - Characters

    /// A byte of a name: ASCII letters, `_` and `:` (and after the first, digits, `-` and `.`),
    /// or any byte of a character past ASCII.
    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            !first
        default:
            false
        }
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// XML 1.0's `Char`.
    private static func isXMLCharacter(_ code: UInt32) -> Bool {
        code == 0x9 || code == 0xA || code == 0xD || (0x20...0xD7FF).contains(code)
            || (0xE000...0xFFFD).contains(code) || (0x1_0000...0x10_FFFF).contains(code)
    }
}
