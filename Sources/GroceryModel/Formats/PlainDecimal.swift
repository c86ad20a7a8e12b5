import Foundation

/// How a number is written in an import file's text (the CSV quantity column), the one rule:
///
/// an optional sign (`-` or `+`), then one or more decimal digits `0`–`9`, then optionally a
/// single `.` followed by one or more digits. Nothing else: no spaces around it, no exponent
/// (`1e5`), no hexadecimal (`0x10`), no `inf` or `nan`, no thousands separator, no comma as
/// the decimal point, not empty. A number too large to be represented is refused as well.
enum PlainDecimal {
    /// The number `text` spells under the rule; `nil` when it does not follow it.
    static func parse(_ text: String) -> Double? {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// `value` written under the rule, with the digits that read back as the same `Double`.
    static func string(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let shortest = "\(value)"  // "1.25", or "1e-05": move the point instead of an exponent
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(shortest[shortest.index(after: e)...])
        else {
            return shortest
        }
        var mantissa = shortest[..<e]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let point =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        var position = point + exponent  // where the point goes in `digits`
        if position <= 0 {
            digits = String(repeating: "0", count: 1 - position) + digits
            position = 1
        } else if position >= digits.count {
            return sign + digits + String(repeating: "0", count: position - digits.count)
        }
        return sign + digits.prefix(position) + "." + digits.dropFirst(position)
    }
}
