import Foundation

/// A screen's styles as text, a letter per cell, as ratatui's style assertions spell them:
/// what snapshot files keep below the screen's text, so a change of colour or of the selection
/// shows in a diff beside the change of text.
///
/// Every style has its own letter, the same in every snapshot: a plain cell is a space, the
/// styles the screens use have a letter that says what they are (`r` reverse, `d` dim, `b`
/// bold, `T` the title bar, `s` the status line, `l` listed, `h` a hint, `w` a warning), any
/// other has a character of its own. A legend below names the letters a screen uses.
extension ScreenBuffer {
    /// A line of letters per row, trailing plain cells left out.
    public var styleLines: [String] {
        cells.map { row in
            String(row.map(\.style.letter)).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// `letter = words` for every style the screen uses, in the letters' order.
    public var styleLegend: [String] {
        Set(cells.joined().map(\.style)).subtracting([.plain])
            .sorted { $0.code < $1.code }
            .map { "\($0.letter) = \($0.words)" }
    }
}

extension CellStyle {
    /// A number per style: colour role × 8 + bold × 4 + reverse × 2 + dim.
    var code: Int { color.rawValue * 8 + (bold ? 4 : 0) + (reverse ? 2 : 0) + (dim ? 1 : 0) }

    private static let named: [CellStyle: Character] = [
        .plain: " ", CellStyle(dim: true): "d", CellStyle(reverse: true): "r", CellStyle(bold: true): "b",
        CellStyle(bold: true, reverse: true): "B",
        CellStyle(bold: true, reverse: true, color: .title): "T",
        CellStyle(reverse: true, color: .status): "s",
        CellStyle(bold: true, color: .section): "S",
        CellStyle(color: .listed): "l", CellStyle(reverse: true, color: .listed): "L",
        CellStyle(color: .hint): "h",
        CellStyle(color: .warning): "w", CellStyle(bold: true, color: .warning): "W",
        CellStyle(bold: true, reverse: true, color: .warning): "V",
    ]

    /// For the others, by ``code``: none of the named letters.
    private static let others = Array("0123456789acefgijkmnopqtuvxyzACDEFGHIJKMNOPQRUXYZ!#$%&*+=?@^~")

    var letter: Character { Self.named[self] ?? Self.others[code % Self.others.count] }

    /// "bold reverse title".
    var words: String {
        let parts = [
            bold ? "bold" : nil, reverse ? "reverse" : nil, dim ? "dim" : nil,
            color == .normal ? nil : "\(color)",
        ].compactMap { $0 }
        return parts.joined(separator: " ")
    }
}
