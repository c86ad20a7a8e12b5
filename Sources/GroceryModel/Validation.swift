import Foundation
import Ubiquity

/// The checks every name and quantity passes before it reaches the store, from the keyboard,
/// the command line or an import file.
public enum Validation {
    /// The longest name accepted, in characters.
    public static let maximumNameLength = 200
    /// The largest quantity accepted.
    public static let maximumQuantity = 100_000.0

    /// Checks a name typed by a user: surrounding spaces are dropped; what remains must be
    /// non-empty, without control characters, at most ``maximumNameLength`` characters.
    ///
    /// - Parameter field: what the name is of, for the message ("item name").
    /// - Returns: the trimmed name.
    public static func name(_ raw: String, field: String) throws -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        try check(name: trimmed, field: field)
        return trimmed
    }

    /// Checks a name read from a file, keeping its spelling (the book's data has `" Tin"`).
    public static func importedName(_ raw: String, field: String) throws -> String {
        try check(name: raw, field: field)
        return raw
    }

    private static func check(name: String, field: String) throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw GroceryError.invalidName(field: field, reason: "it is blank")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw GroceryError.invalidName(field: field, reason: "\(name.debugDescription) contains a control character")
        }
        if name.count > maximumNameLength {
            throw GroceryError.invalidName(
                field: field, reason: "it is \(name.count) characters long; the limit is \(maximumNameLength)")
        }
    }

    /// Checks a quantity: a finite number from 0 to ``maximumQuantity``.
    public static func quantity(_ value: Double) throws -> Double {
        guard value.isFinite else { throw GroceryError.invalidQuantity("\(value) is not a number") }
        guard value >= 0 else { throw GroceryError.invalidQuantity("\(QuantityFormat.string(value)) is negative") }
        guard value <= maximumQuantity else {
            throw GroceryError.invalidQuantity(
                "\(QuantityFormat.string(value)) is more than \(QuantityFormat.string(maximumQuantity))")
        }
        return value
    }

    /// Parses and checks a quantity typed as text ("2", "1.5", "0,5").
    public static func quantity(text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789.+-eE".contains($0) }), let value = Double(trimmed) else {
            throw GroceryError.invalidQuantity("\(text.debugDescription) is not a number")
        }
        return try quantity(value)
    }

    /// How names are compared when users refer to them: surrounding and repeated spaces
    /// ignored, case-insensitive.
    public static func normalized(_ name: String) -> String {
        UniqueKey.normalize(name)
    }
}
