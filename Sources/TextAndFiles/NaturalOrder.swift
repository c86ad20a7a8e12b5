import Foundation

/// Names in the order Finder and GNOME Files give them: runs of digits compare as numbers
/// ("Aisle 2" before "Aisle 10"), the rest as folded text (case, accents and width aside,
/// ``TextFolding``). Equal so far: fewer leading zeros first, then the names as written, so
/// that the order is total and the same on every device.
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let (left, right) = (key(a), key(b))
        for (x, y) in zip(left, right) where x != y { return x < y }
        if left.count != right.count { return left.count < right.count }
        return a < b
    }

    /// One run of a name: its text, or its number.
    enum Part: Comparable {
        /// Digits: their value without leading zeros (compared by length, then by digits), then how
        /// many leading zeros they had.
        case number(String, zeros: Int)
        case text(String)

        static func < (a: Part, b: Part) -> Bool {
            switch (a, b) {
            case (.number(let x, let xz), .number(let y, let yz)):
                return (x.count, x, xz) < (y.count, y, yz)
            case (.number, .text): return true  // "2" before "a", as Finder
            case (.text, .number): return false
            case (.text(let x), .text(let y)): return x < y
            }
        }
    }

    /// The name's runs, text folded.
    static func key(_ name: String) -> [Part] {
        var parts: [Part] = []
        var digits = ""
        var text = ""
        func flushDigits() {
            guard !digits.isEmpty else { return }
            let value = digits.drop { $0 == "0" }
            parts.append(.number(value.isEmpty ? "0" : String(value), zeros: digits.count - max(value.count, 1)))
            digits = ""
        }
        func flushText() {
            guard !text.isEmpty else { return }
            parts.append(.text(TextFolding.fold(text)))
            text = ""
        }
        for character in name {
            if character.isASCII, character.isNumber {
                flushText()
                digits.append(character)
            } else {
                flushDigits()
                text.append(character)
            }
        }
        flushDigits()
        flushText()
        return parts
    }
}
