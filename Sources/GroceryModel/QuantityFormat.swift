import Foundation

/// How quantities are written for people, one place for every screen and command. (Read back
/// from what a person types by ``Validation/quantity(text:)``; files follow their own rule.)
public enum QuantityFormat {
    /// For tables: no trailing ".0", at most three decimals.
    public static func string(_ quantity: Double) -> String {
        if quantity == quantity.rounded(), abs(quantity) < 1e15 { return String(Int64(quantity)) }
        var text = String(format: "%.3f", quantity)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Every digit, for a field that is edited and saved again, or a message after a change:
    /// no trailing ".0", and the shortest digits that read back as exactly the same number.
    public static func exact(_ quantity: Double) -> String {
        quantity == quantity.rounded() && abs(quantity) < 1e15 ? String(Int64(quantity)) : String(quantity)
    }
}
