import Foundation
import TextAndFiles

/// How a cell is drawn.
public struct CellStyle: Hashable, Sendable {
    public var bold = false
    public var reverse = false
    public var dim = false
    /// A colour role, drawn in colour when the terminal has colours and `NO_COLOR` is unset.
    public var color: ColorRole = .normal

    public init(bold: Bool = false, reverse: Bool = false, dim: Bool = false, color: ColorRole = .normal) {
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.color = color
    }

    public static let plain = CellStyle()
}

/// The colours the screens use, by role.
public enum ColorRole: Int, Sendable, CaseIterable {
    case normal = 0
    case title
    case section
    case listed
    case status
    /// Key hints and other quiet text.
    case hint
    /// Notices and warnings (a store change under way, offline).
    case warning
}

/// One cell of the screen: a character and its style. A wide character fills its cell and
/// marks the next one as its continuation.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public var style: CellStyle
    public var isContinuation: Bool

    public static let blank = Cell(character: " ", style: .plain, isContinuation: false)
}

/// An in-memory screen: what rendering writes and what the curses backend (or a snapshot test)
/// reads. Rendering is a pure function into one of these.
public struct ScreenBuffer: Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [[Cell]]
    /// Where the terminal's own cursor goes (the text field being typed in), or nowhere.
    public var cursor: (row: Int, column: Int)?

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Writes `text` at a row and column, clipped to the screen (and to `maxWidth` columns);
    /// a wide character that would not fit whole is left out.
    ///
    /// - Returns: the columns written.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil)
        -> Int
    {
        guard row >= 0, row < height, column >= 0 else { return 0 }
        let limit = min(width, column + (maxWidth ?? width))
        var x = column
        for character in text {
            let columns = TextWidth.columns(of: character)
            if columns == 0 { continue }
            if x + columns > limit { break }
            cells[row][x] = Cell(character: character, style: style, isContinuation: false)
            if columns == 2 { cells[row][x + 1] = Cell(character: " ", style: style, isContinuation: true) }
            x += columns
        }
        return x - column
    }

    /// Paints a whole row's background with a style (a bar).
    public mutating func fill(row: Int, style: CellStyle) {
        guard row >= 0, row < height else { return }
        for x in 0..<width where cells[row][x] == .blank {
            cells[row][x] = Cell(character: " ", style: style, isContinuation: false)
        }
    }

    /// The screen as text, one string per row, trailing spaces kept: what snapshot tests compare.
    public var lines: [String] {
        cells.map { row in String(row.filter { !$0.isContinuation }.map(\.character)) }
    }
}
