import Foundation

/// What an app's idle file says: keys handled, then the screen drawn (see the app's `IdleReport`).
struct IdleFile {
    var keys: Int
    var screen: String

    /// `nil` while the file is missing (the app has not drawn yet).
    init?(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let newline = text.firstIndex(of: "\n"),
            let keys = Int(text[..<newline].dropFirst("keys ".count))
        else { return nil }
        self.keys = keys
        screen = Self.normalized(String(text[text.index(after: newline)...]))
    }

    /// A screen without trailing spaces or empty lines at its end, as the app and tmux both write it.
    static func normalized(_ screen: String) -> String {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
