import Foundation
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// Dates in files: ISO 8601 in UTC with milliseconds ("2026-11-21T15:04:05.123Z").
///
/// The store keeps dates at millisecond precision (``Timestamp/rounded(_:)``), so that a date
/// written out and read back is the same `Date`, bit for bit. Formatting computes the calendar
/// date (``civilDate(days:)``) and parsing uses the C library's `timegm`: a date formatter per
/// call made exporting 10k items take seconds.
public enum Timestamp {
    public static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    public static func string(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``string(_:)``'s text to `output` as UTF-8 (listings write one per row).
    public static func append(_ date: Date, to output: inout [UInt8]) {
        withText(of: date) { output.append(contentsOf: $0) }
    }

    /// Lends ``string(_:)``'s text as UTF-8, made in place, for the time of `body`.
    public static func withText(of date: Date, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textLength) { text in
            write(date, to: text.baseAddress!)
            body(UnsafeBufferPointer(text))
        }
    }

    /// How many bytes ``write(_:to:)`` writes: "2026-11-21T15:04:05.123Z".
    public static let textLength = 24

    /// Writes ``string(_:)``'s text as UTF-8 at `text`, which has room for ``textLength`` bytes:
    /// a listing writes a date straight into its output, two digits at a time.
    public static func write(_ date: Date, to text: UnsafeMutablePointer<UInt8>) {
        // Stored dates are checked on the way in (years 1970–9999); one that got past anyway (an
        // older build's store) is shown at the nearest end of years 1–9999 rather than trapping.
        let given = date.timeIntervalSince1970
        let clamped = given.isFinite ? min(max(given, -62_135_596_800), ValueRule.dateRange.upperBound) : 0
        let milliseconds = Int64((clamped * 1000).rounded())
        var seconds = Int(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var fraction = Int(milliseconds.quotientAndRemainder(dividingBy: 1000).remainder)
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        let days = flooredQuotient(seconds, 86_400)
        // Years 1–9999 after the clamp above: four digits.
        let (year, month, day) = civilDate(days: days)
        let time = seconds - days * 86_400
        let pairs = twoDigits.utf8Start
        /// `value` (0–99) as two digits at `offset`.
        func pair(_ value: Int, at offset: Int) {
            text[offset] = pairs[2 * value]
            text[offset + 1] = pairs[2 * value + 1]
        }
        pair(year / 100, at: 0)
        pair(year % 100, at: 2)
        text[4] = UInt8(ascii: "-")
        pair(month, at: 5)
        text[7] = UInt8(ascii: "-")
        pair(day, at: 8)
        text[10] = UInt8(ascii: "T")
        pair(time / 3600, at: 11)
        text[13] = UInt8(ascii: ":")
        pair(time / 60 % 60, at: 14)
        text[16] = UInt8(ascii: ":")
        pair(time % 60, at: 17)
        text[19] = UInt8(ascii: ".")
        text[20] = UInt8(ascii: "0") + UInt8(fraction / 100)
        pair(fraction % 100, at: 21)
        text[23] = UInt8(ascii: "Z")
    }

    /// "00" to "99", one after the other.
    private static let twoDigits: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The date in the proleptic Gregorian calendar `days` after 1970-01-01, as `gmtime_r` gives
    /// it for UTC, computed (Howard Hinnant's `civil_from_days`: whole eras of 400 years, then
    /// years starting in March, so that a leap day is a year's last): the C library's call was
    /// two fifths of writing a date, and a date the largest part of an item in `item ls --json`
    /// (docs/decisions/0177).
    static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = flooredQuotient(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1st
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `dividend / divisor` rounded down (towards minus infinity), for a positive `divisor`.
    private static func flooredQuotient(_ dividend: Int, _ divisor: Int) -> Int {
        let quotient = dividend / divisor
        return dividend % divisor < 0 ? quotient - 1 : quotient
    }

    /// For file names: `20261121T173954Z`, the UTC time without separators.
    public static func fileStamp(_ date: Date) -> String {
        let text = string(date)
        return String(text.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`; `nil` when it is not such a date.
    public static func parse(_ text: String) -> Date? {
        let characters = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count else { return nil }
            var value = 0
            for index in range {
                let digit = Int(characters[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func character(_ index: Int, is expected: Character) -> Bool {
            index < characters.count && characters[index] == expected.asciiValue!
        }
        guard let year = number(0..<4), character(4, is: "-"), let month = number(5..<7), character(7, is: "-"),
            let day = number(8..<10), character(10, is: "T") || character(10, is: "t") || character(10, is: " "),
            let hour = number(11..<13), character(13, is: ":"), let minute = number(14..<16),
            character(16, is: ":"), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }

        var index = 19
        var fraction = 0.0
        if character(index, is: ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < characters.count, (48...57).contains(characters[index]) {
                fraction += Double(characters[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if character(index, is: "Z") || character(index, is: "z") {
            index += 1
        } else if character(index, is: "+") || character(index, is: "-") {
            guard let hours = number(index + 1..<index + 3), character(index + 3, is: ":"),
                let minutes = number(index + 4..<index + 6)
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (character(index, is: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == characters.count else { return nil }

        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        guard parts.tm_mday == Int32(day) else { return nil }  // 31 February rolled over
        return rounded(Date(timeIntervalSince1970: Double(seconds - offset) + fraction))
    }
}

extension Timestamp {
    /// A moment a person types: ISO 8601 (``parse(_:)``: `2026-11-24T18:00:00Z`, with an offset
    /// or `Z`), or local time without a zone, `2026-11-24 18:00` (seconds optional; a `T` may
    /// stand for the space); `nil` when it is neither.
    public static func parseMoment(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let date = parse(text) { return date }
        let characters = Array(text.utf8)
        guard characters.count == 16 || characters.count == 19, characters.isASCII else {
            return nil
        }
        let digits = characters.enumerated().filter { ![4, 7, 10, 13, 16].contains($0.offset) }.map(\.element)
        guard digits.allSatisfy({ (48...57).contains($0) }), characters[4] == 45, characters[7] == 45,
            [32, 84, 116].contains(characters[10]), characters[13] == 58, characters.count == 16 || characters[16] == 58
        else { return nil }
        func number(_ range: Range<Int>) -> Int32 {
            range.reduce(0) { $0 * 10 + Int32(characters[$1] - 48) }
        }
        var parts = tm()
        parts.tm_year = number(0..<4) - 1900
        parts.tm_mon = number(5..<7) - 1
        parts.tm_mday = number(8..<10)
        parts.tm_hour = number(11..<13)
        parts.tm_min = number(14..<16)
        parts.tm_sec = characters.count == 19 ? number(17..<19) : 0
        parts.tm_isdst = -1
        let (month, day, hour, minute, second) = (
            parts.tm_mon, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec
        )
        guard (0...11).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let seconds = mktime(&parts)
        guard seconds != -1 || parts.tm_mday == day, parts.tm_mday == day else { return nil }  // 31 February
        return Date(timeIntervalSince1970: Double(seconds))
    }
}

/// The wall clock of a real device, at the store's millisecond precision.
public struct MillisecondClock: WallClock {
    public init() {}
    public func now() -> Date { Timestamp.rounded(Date()) }
}
