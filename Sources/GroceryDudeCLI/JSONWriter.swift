import Foundation
import Ubiquity

/// Writes the JSON of `ls --json` by hand: keys in a fixed, documented order, one object per
/// line inside the array. Foundation's encoder took half a second for 10k items.
struct JSONWriter {
    enum Value {
        case string(String?)
        case number(Double)
        case integer(Int)
        case bool(Bool)
        /// JSON text written as it is.
        case raw(String)
    }

    private var output = "["
    private var count = 0

    mutating func appendObject(_ fields: KeyValuePairs<String, Value>) {
        output += count == 0 ? "\n  {" : ",\n  {"
        count += 1
        var first = true
        for (key, value) in fields {
            output += first ? "" : ", "
            first = false
            output += Self.quoted(key) + ": " + Self.render(value)
        }
        output += "}"
    }

    /// The finished array, with a final newline.
    var text: String { output + (count == 0 ? "]\n" : "\n]\n") }

    static func render(_ value: Value) -> String {
        switch value {
        case .string(let text): text.map(quoted) ?? "null"
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .integer(let integer): String(integer)
        case .bool(let bool): bool ? "true" : "false"
        case .raw(let text): text
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
}
