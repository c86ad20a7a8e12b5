import Foundation

/// Text for a manual page in mdoc (the macros of the page the argument parser generates):
/// escaped so that roff prints it as it is written.
enum Roff {
    /// A line of running text or of a literal display: a backslash and a hyphen print as
    /// themselves (`\e`, `\-`: a `-` alone may become a typographic hyphen, which breaks a
    /// command copied from the page), the arrows of the keys as roff's arrows, and a line that
    /// starts with a period or an apostrophe is not read as a request.
    static func text(_ line: String) -> String {
        var escaped = ""
        for character in line {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "↑": escaped += "\\(ua"
            case "↓": escaped += "\\(da"
            case "←": escaped += "\\(<-"
            case "→": escaped += "\\(->"
            default: escaped.append(character)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    /// One argument of a macro, quoted: spaces stay in it, and its words are never taken for
    /// macros (a key called `Ar` or `No`).
    static func argument(_ text: String) -> String {
        "\"" + Roff.text(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}
