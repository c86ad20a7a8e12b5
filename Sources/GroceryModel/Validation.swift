import Foundation
import Ubiquity

/// The checks every name and quantity passes before it reaches the store, from the keyboard,
/// the command line or an import file: the schema's rules (``GrocerySchema/nameRule``,
/// ``GrocerySchema/quantityRule``), which imported logs and baselines obey too.
public enum Validation {
    /// The longest name accepted, in characters.
    public static let maximumNameLength = GrocerySchema.maximumNameLength
    /// The largest quantity accepted.
    public static let maximumQuantity = GrocerySchema.maximumQuantity

    /// Checks a name typed by a user: surrounding spaces are dropped; what remains must be
    /// visible (not blank, not only invisible characters), without control characters, at most
    /// ``maximumNameLength`` characters.
    ///
    /// - Parameter field: what the name is of, for the message ("item name").
    /// - Returns: the trimmed name, in NFC: "Café" is stored alike from every keyboard.
    public static func name(_ raw: String, field: String) throws -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        try check(trimmed, GrocerySchema.nameRule, field: field)
        return trimmed
    }

    /// Checks a name read from a file, keeping its spelling (the book's data has `" Tin"`) but
    /// not its Unicode form: it is stored in NFC, as typed names are.
    public static func importedName(_ raw: String, field: String) throws -> String {
        let name = raw.precomposedStringWithCanonicalMapping
        try check(name, GrocerySchema.nameRule, field: field)
        return name
    }

    private static func check(_ text: String, _ rule: ValueRule, field: String) throws {
        if let reason = rule.violation(of: .string(text)) {
            throw GroceryError.invalidName(field: field, reason: reason)
        }
    }

    /// Checks a quantity: a finite number from 0 to ``maximumQuantity``.
    public static func quantity(_ value: Double) throws -> Double {
        if let reason = GrocerySchema.quantityRule.violation(of: .double(value)) {
            throw GroceryError.invalidQuantity(reason)
        }
        return value
    }

    /// Parses and checks a quantity typed as text ("2", "1.5", "0,5").
    public static func quantity(text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789.+-eE".contains($0) }), let value = Double(trimmed)
        else {
            throw GroceryError.invalidQuantity("\(text.debugDescription) is not a number")
        }
        return try quantity(value)
    }

    /// A value a person gave, quoted for a message as the rules quote one: its first 40
    /// characters, then "…" (a pasted page is not echoed whole).
    public static func shown(_ text: String) -> String { ValueRule.shortened(text).debugDescription }

    /// How names are compared when users refer to them: surrounding and repeated spaces
    /// ignored, case folded, whichever Unicode form (``UniqueKey``).
    public static func normalized(_ name: String) -> String {
        UniqueKey.normalize(name)
    }
}
