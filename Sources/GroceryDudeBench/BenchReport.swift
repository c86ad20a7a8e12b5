import Foundation

/// The figures of one bench run: printed as lines for a person, or, with `--json`, gathered and
/// printed at the end as one JSON object (`{"import": {...}, "capture": {...}, ...}`), every
/// floor measured in the same run as what it is compared with.
enum BenchReport {
    nonisolated(unsafe) static var json = false
    nonisolated(unsafe) private static var sections: [(name: String, fields: [(key: String, value: String)])] = []

    /// One bench's figures, in the order given, and its line for a person.
    static func record(_ section: String, _ fields: KeyValuePairs<String, Double>, digits: Int = 3, line: String) {
        sections.append((section, fields.map { ($0.key, number($0.value, digits: digits)) }))
        if !json { print(line) }
    }

    /// A number as JSON: integers without a fraction, others to `digits` places; `null` when
    /// not measured.
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.\(digits)f", value)
    }

    /// The JSON object of everything recorded, keys in the order the benches ran.
    static var text: String {
        "{\n"
            + sections.map { section in
                "  \"\(section.name)\": {" + section.fields.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
                    + "}"
            }.joined(separator: ",\n") + "\n}"
    }
}
