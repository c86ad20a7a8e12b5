import Foundation

/// What values a property accepts, wherever they come from: the command line, a screen, an
/// import file, another peer's log or baseline. One rule per property, declared with the
/// schema, so every way in checks the same thing.
///
/// Rules every value of a type obeys, whatever its property declares:
/// - doubles are finite;
/// - dates are finite and fall within the years 1970–9999 (``dateRange``);
/// - text is valid Unicode by construction (readers refuse invalid UTF-8 before it gets here).
public struct ValueRule: Sendable, Equatable {
    /// Whether the value may be null.
    public var optional: Bool
    /// For numbers: the smallest and largest accepted.
    public var range: ClosedRange<Double>?
    /// For text: the most characters accepted.
    public var maximumLength: Int?
    /// For text: whether it must hold something visible (not blank, not only invisible
    /// characters such as U+FEFF).
    public var nonBlank: Bool
    /// For data: the most bytes accepted.
    public var maximumBytes: Int?

    public init(
        optional: Bool = true, range: ClosedRange<Double>? = nil, maximumLength: Int? = nil,
        nonBlank: Bool = false, maximumBytes: Int? = nil
    ) {
        self.optional = optional
        self.range = range
        self.maximumLength = maximumLength
        self.nonBlank = nonBlank
        self.maximumBytes = maximumBytes
    }

    /// Anything of the property's type, null included.
    public static let any = ValueRule()

    /// A name: required, something visible, at most `maximumLength` characters, no control
    /// characters.
    public static func name(maximumLength: Int) -> ValueRule {
        ValueRule(optional: false, maximumLength: maximumLength, nonBlank: true)
    }

    /// Seconds since 1970 of the first and last instants a date may hold: 1970-01-01 to the end
    /// of 9999. Later dates cannot be written as four-digit years; earlier ones come before any store was written.
    public static let dateRange: ClosedRange<Double> = 0...253_402_300_799.999

    // MARK: - Checking

    /// Why `value` breaks the rule, or `nil` when it obeys it. The reason reads after the
    /// property's name: "item name: it is blank".
    public func violation(of value: PropertyValue) -> String? {
        switch value {
        case .null:
            return optional ? nil : "it is missing (null)"
        case .bool, .reference, .blob:
            return nil
        case .integer(let number):
            return numberViolation(Double(number), text: String(number))
        case .double(let number):
            guard number.isFinite else { return "\(number) is not a number" }
            return numberViolation(number, text: Self.format(number))
        case .date(let date):
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite, Self.dateRange.contains(seconds) else {
                return "\(Self.format(seconds)) seconds since 1970 is not a date from 1970 to 9999"
            }
            return nil
        case .string(let text):
            return textViolation(text)
        case .data(let bytes):
            if let maximumBytes, bytes.count > maximumBytes {
                return "it is \(bytes.count) bytes; the limit is \(maximumBytes)"
            }
            return nil
        }
    }

    /// `text` is made only for a message: formatting every number checked cost more than the check.
    private func numberViolation(_ number: Double, text: @autoclosure () -> String) -> String? {
        guard let range else { return nil }
        if number < range.lowerBound {
            return range.lowerBound == 0
                ? "\(text()) is negative" : "\(text()) is less than \(Self.format(range.lowerBound))"
        }
        if number > range.upperBound { return "\(text()) is more than \(Self.format(range.upperBound))" }
        return nil
    }

    private func textViolation(_ text: String) -> String? {
        // Printable ASCII, most of what is typed: no control character, a character a byte, and
        // blank only when spaces. Asking each scalar's Unicode properties was a tenth of a save.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            if nonBlank, text.utf8.allSatisfy({ $0 == UInt8(ascii: " ") }) { return "it is blank" }
            if let maximumLength, text.utf8.count > maximumLength {
                return "it is \(text.utf8.count) characters long; the limit is \(maximumLength)"
            }
            return nil
        }
        if nonBlank, Self.isInvisible(text) {
            return text.isEmpty || text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
                ? "it is blank" : "it holds only invisible characters"
        }
        if let scalar = text.unicodeScalars.first(where: Self.isForbidden) {
            return
                "\(Self.shortened(text).debugDescription) contains a control character (U+\(String(scalar.value, radix: 16, uppercase: true)))"
        }
        if let maximumLength {
            // Counting characters walks the text: stop as soon as the limit is passed.
            var count = 0
            for _ in text {
                count += 1
                if count > maximumLength { return "it is \(text.count) characters long; the limit is \(maximumLength)" }
            }
        }
        return nil
    }

    /// Whitespace and default-ignorable characters (zero-width spaces and joiners, U+FEFF, …):
    /// a name made only of these shows as nothing.
    static func isInvisible(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
    }

    /// Control characters, line and paragraph separators, and the bidirectional overrides and
    /// isolates that make text display in another order than it is stored.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    /// `text` as a message quotes it: its first 40 characters, then "…" when there is more.
    public static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    private static func format(_ number: Double) -> String {
        number.isFinite && number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
