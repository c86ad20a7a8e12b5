import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many terminal columns text takes: CJK and emoji take two, combining marks none. Text is
/// measured, cut and padded by grapheme clusters (what a reader sees as one character: a family
/// emoji, a flag, "e" with its accent), never by bytes or UTF-16 units. Every screen and every
/// table the command line prints measure with this one function.
public enum TextWidth {
    /// Makes `wcwidth` answer for UTF-8: the user's locale when it is UTF-8, else `C.UTF-8`.
    /// Called once, before the first measurement.
    private static let localeReady: Bool = {
        let current = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? ""
        if !current.uppercased().contains("UTF-8") && !current.uppercased().contains("UTF8") {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        return true
    }()

    /// The columns one character (grapheme cluster) takes.
    public static func columns(of character: Character) -> Int {
        _ = localeReady
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        if first.properties.isEmojiPresentation { return 2 }
        let width = Int(wcwidth?(wchar_t(bitPattern: first.value)) ?? 1)
        return width < 0 ? 1 : width
    }

    /// The C library's `wcwidth`, found in the running process once. The Glibc module does not
    /// declare it (glibc's header does so only under `_XOPEN_SOURCE`), and a declaration of our
    /// own would need a C module; `dlsym` gives the function itself, called as C calls it.
    /// `nil` if the C library lacks it: every character is then one column.
    private static let wcwidth: (@convention(c) (wchar_t) -> Int32)? = {
        // A nil handle is RTLD_DEFAULT: the symbol as the program's libraries define it.
        guard let symbol = dlsym(nil, "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
    }()

    /// The columns a string takes.
    public static func columns(of text: String) -> Int {
        // Printable ASCII is one column a byte, each its own character: no Unicode tables.
        // (Tables of 10k item names spent half their time in them.)
        var text = text
        let ascii = text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if ascii { return text.utf8.count }
        return text.reduce(0) { $0 + columns(of: $1) }
    }

    /// The longest prefix of `text` that fits in `width` columns, never cutting a grapheme
    /// cluster or a wide character in half; with `ellipsis`, a cut text ends with "…".
    public static func truncate(_ text: String, to width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if columns(of: text) <= width { return text }
        let room = ellipsis ? width - 1 : width
        var result = ""
        var used = 0
        for character in text {
            let columns = columns(of: character)
            if used + columns > room { break }
            result.append(character)
            used += columns
        }
        return ellipsis ? result + "…" : result
    }

    /// `text` followed by spaces up to `width` columns (text already as wide is left as it is,
    /// never cut): how tables align their columns.
    public static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(of: text)))
    }
}
