import Foundation
import Ubiquity

/// Dates in files: ISO 8601 in UTC with milliseconds ("2026-11-21T15:04:05.123Z").
///
/// The store keeps dates at millisecond precision (``Timestamp/rounded(_:)``), so that a date
/// written out and read back is the same `Date`, bit for bit.
public enum Timestamp {
    public static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    public static func string(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (whole, fraction) = seconds.remainder < 0 ? (seconds.quotient - 1, seconds.remainder + 1000) : seconds
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let base = formatter.string(from: Date(timeIntervalSince1970: Double(whole)))
        return base.dropLast() + String(format: ".%03dZ", Int(fraction))
    }

    /// Parses ISO 8601 with or without fractional seconds; `nil` when it is not a date.
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var whole = text
        var fraction = 0.0
        if let dot = text.firstIndex(of: "."), let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            let digits = text[text.index(after: dot)..<zone]
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let value = Double("0." + digits) else { return nil }
            fraction = value
            whole = String(text[..<dot] + text[zone...])
        }
        guard let date = formatter.date(from: whole) else { return nil }
        return rounded(Date(timeIntervalSince1970: date.timeIntervalSince1970 + fraction))
    }
}

/// The wall clock of a real device, at the store's millisecond precision.
public struct MillisecondClock: Ubiquity.WallClock {
    public init() {}
    public func now() -> Date { Timestamp.rounded(Date()) }
}
