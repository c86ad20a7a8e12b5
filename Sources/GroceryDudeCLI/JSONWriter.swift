import Foundation
import GroceryModel
import TextAndFiles

/// Writes the JSON of `ls --json` by hand: keys in a fixed, documented order, one object per
/// line inside the array. Foundation's encoder took half a second for 10k items.
///
/// The text is made in a ``ByteBuffer``: an item's object is about thirty small pieces (a key
/// made once, a value), and appending each to a byte array cost more than the rest of the
/// command's own work.
struct JSONWriter: ~Copyable {
    enum Value {
        case string(String?)
        case number(Double)
        case integer(Int)
        case bool(Bool)
        /// A ``Timestamp`` string.
        case date(Date)
        /// JSON text written as it is.
        case raw(String)
    }

    private var output = ByteBuffer()
    private var count = 0

    init() { output.append(UInt8(ascii: "[")) }

    mutating func reserveCapacity(_ bytes: Int) { output.reserveCapacity(bytes) }

    mutating func appendObject(_ fields: KeyValuePairs<String, Value>) {
        beginObject()
        var first = true
        for (key, value) in fields {
            if !first { output.append(Self.separator) }
            first = false
            Self.appendQuoted(key, to: &output)
            output.append(Self.colon)
            Self.append(value, to: &output)
        }
        endObject()
    }

    /// A key as it is written, quoted, with its colon, and after `, ` unless it is an object's
    /// first (`, "name": `), for objects written many times: a listing of 10k items writes 130k
    /// keys. A literal, copied from where the program holds it: a key kept as a byte array was
    /// retained, released and looked up through its lazy global at every use
    /// (docs/decisions/0177).
    struct Key {
        fileprivate let text: StaticString

        init(_ text: StaticString) { self.text = text }
    }

    /// Starts the next object of the array: its fields follow (``append(_:_:)``), then ``endObject()``.
    mutating func beginObject() {
        output.append(count == 0 ? Self.firstObject : Self.nextObject)
        count += 1
    }

    mutating func append(_ key: Key, _ value: Value) {
        output.append(key.text)
        Self.append(value, to: &output)
    }

    /// `true` or `false`. The typed appends (`bool:`, `integer:`, `number:`, `date:`,
    /// ``appendNull(_:)``) write what ``append(_:_:)`` writes for the same value without making
    /// a ``Value`` of it first, which was copied and switched over at each of a JSON listing's
    /// 70k plain values (docs/decisions/0182).
    mutating func append(_ key: Key, bool: Bool) {
        output.append(key.text)
        output.append(bool ? Self.true : Self.false)
    }

    mutating func append(_ key: Key, integer: Int) {
        output.append(key.text)
        Self.appendInteger(Int64(integer), to: &output)
    }

    mutating func append(_ key: Key, number: Double) {
        output.append(key.text)
        Self.appendNumber(number, to: &output)
    }

    mutating func append(_ key: Key, date: Date) {
        output.append(key.text)
        Self.appendDate(date, to: &output)
    }

    mutating func appendNull(_ key: Key) {
        output.append(key.text)
        output.append(Self.null)
    }

    /// A value written already as JSON.
    mutating func append(_ key: Key, json: [UInt8]) {
        json.withUnsafeBufferPointer { append(key, json: $0) }
    }

    /// A value written already as JSON, lent where it lies.
    mutating func append(_ key: Key, json: UnsafeBufferPointer<UInt8>) {
        output.append(key.text)
        output.append(json)
    }

    /// A string value given as its UTF-8 bytes.
    mutating func append(_ key: Key, text: UnsafeBufferPointer<UInt8>) {
        output.append(key.text)
        Self.appendQuoted(bytes: text, to: &output)
    }

    /// A string value known to need no escaping (an ID: hexadecimal digits and dashes, checked
    /// when it was read), given as its UTF-8 bytes: written between quotes as it is.
    mutating func append(_ key: Key, plainText text: UnsafeBufferPointer<UInt8>) {
        output.append(key.text)
        output.append(UInt8(ascii: "\""))
        output.append(text)
        output.append(UInt8(ascii: "\""))
    }

    mutating func endObject() { output.append(UInt8(ascii: "}")) }

    private static var firstObject: StaticString { "\n  {" }
    private static var nextObject: StaticString { ",\n  {" }
    private static var separator: StaticString { ", " }
    private static var colon: StaticString { ": " }
    private static var null: StaticString { "null" }
    private static var `true`: StaticString { "true" }
    private static var `false`: StaticString { "false" }

    /// The finished array, with a final newline.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The finished array as UTF-8, with a final newline.
    var bytes: [UInt8] { closing.withUTF8Buffer { output.array + $0 } }

    /// The array's end, and the final newline.
    private var closing: StaticString { count == 0 ? "]\n" : "\n]\n" }

    /// How many bytes were appended since the start or the last ``write(to:)``.
    var pendingByteCount: Int { output.count }

    /// Writes the bytes appended since the start or the last call to `file`, from where they
    /// are: a long array is written as it is made, a piece at a time, instead of being held
    /// whole (and not copied into an array of its own first: 3.4M instructions of
    /// `item ls --json` on 10k items).
    mutating func write(to file: FileHandle) throws {
        try file.write(contentsOf: UnsafeRawBufferPointer(output.bytes))
        output.removeAll()
    }

    /// Writes what is left after the last ``write(to:)``, and the array's end.
    mutating func finish(to file: FileHandle) throws {
        output.append(closing)
        try write(to: file)
    }

    private static func append(_ value: Value, to output: inout ByteBuffer) {
        switch value {
        case .string(let text?): appendQuoted(text, to: &output)
        case .string(nil): output.append(null)
        case .integer(let integer): appendInteger(Int64(integer), to: &output)
        case .number(let number): appendNumber(number, to: &output)
        case .bool(let bool): output.append(bool ? Self.true : Self.false)
        case .date(let date): appendDate(date, to: &output)
        case .raw(let text): output.append(Array(text.utf8))
        }
    }

    /// A whole number as its digits, another as ``render(_:)`` writes it.
    private static func appendNumber(_ number: Double, to output: inout ByteBuffer) {
        if number == number.rounded() && abs(number) < 1e15 {
            appendInteger(Int64(number), to: &output)
        } else {
            output.append(Array(render(.number(number)).utf8))
        }
    }

    /// A ``Timestamp`` between quotes, written in place.
    private static func appendDate(_ date: Date, to output: inout ByteBuffer) {
        output.append(count: Timestamp.textLength + 2) { text in
            text[0] = UInt8(ascii: "\"")
            Timestamp.write(date, to: text + 1)
            text[Timestamp.textLength + 1] = UInt8(ascii: "\"")
        }
    }

    /// `text` as a JSON string, as ``JSONText/appendQuoted(_:to:)`` writes it.
    private static func appendQuoted(_ text: String, to output: inout ByteBuffer) {
        var text = text
        text.withUTF8 { appendQuoted(bytes: $0, to: &output) }
    }

    /// The text whose UTF-8 is `bytes` as a JSON string, as ``JSONText/appendQuoted(_:to:)`` writes it.
    private static func appendQuoted(bytes: UnsafeBufferPointer<UInt8>, to output: inout ByteBuffer) {
        guard JSONText.isPlain(bytes) else {
            return output.append(Array(quoted(String(decoding: bytes, as: UTF8.self)).utf8))
        }
        output.append(UInt8(ascii: "\""))
        output.append(bytes)
        output.append(UInt8(ascii: "\""))
    }

    /// Decimal digits, without a `String` in between: counted, then written in place from the last.
    private static func appendInteger(_ value: Int64, to output: inout ByteBuffer) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude  // Int64.min has one: 9223372036854775808
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        output.append(count: digits) { text in
            var rest = magnitude
            for offset in stride(from: digits - 1, through: 0, by: -1) {
                text[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
    }

    static func render(_ value: Value) -> String {
        switch value {
        case .string(let text): text.map(quoted) ?? "null"
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .integer(let integer): String(integer)
        case .bool(let bool): bool ? "true" : "false"
        case .raw(let text): text
        case .date(let date): quoted(Timestamp.string(date))
        }
    }

    static func quoted(_ text: String) -> String { JSONText.quoted(text) }

}

/// One JSON object with keys in the order they are added (`status --json`).
struct JSONObjectWriter {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: JSONWriter.Value) {
        fields.append(JSONWriter.quoted(key) + ": " + JSONWriter.render(value))
    }

    var text: String { "{\n  " + fields.joined(separator: ",\n  ") + "\n}" }

    /// The object on one line, with its newline (JSON Lines).
    var line: String { "{" + fields.joined(separator: ", ") + "}\n" }
}
