import Foundation

/// The data files that ship with Grocery Dude, embedded in the binary so that an installed or
/// copied executable never depends on a resource bundle beside it (see docs/decisions/0008).
public enum GroceryResources {
    /// `Resources/DefaultData.json`: the default groceries a new device starts with.
    public static var defaultDataJSON: [UInt8] { PackageResources.DefaultData_json }

    /// `Resources/VERSION`: the version `grocery-dude --version` shows, kept in that one file.
    /// Trimmed by the standard library: every command reads it (the root command's configuration),
    /// and Foundation's `trimmingCharacters(in:)` goes through `NSString`, half a millisecond.
    public static var version: String {
        let text = String(decoding: PackageResources.VERSION, as: UTF8.self)
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return String(text[start..<end])
    }
}
