import TextAndFiles

/// Texts a table prints many times — the marks, the names of units and locations, the
/// quantities, the claims — each turned into bytes and measured (``TextWidth``) once, and laid
/// end to end in one buffer, where a ``TableLine`` copies them from.
///
/// A table of 10k items made each of these cells anew for every row: a string appended to the
/// output and measured again, an array of bytes retained and released around each copy.
struct TableCells {
    /// One text's place in ``bytes`` and its width in terminal columns.
    struct Cell {
        let start: Int
        let count: Int
        let width: Int
    }

    private(set) var bytes: [UInt8] = []
    private var cells: [Cell] = []

    /// Adds `text`; what ``subscript(_:)`` finds it by.
    mutating func add(_ text: String) -> Int {
        cells.append(Cell(start: bytes.count, count: text.utf8.count, width: TextWidth.columns(of: text)))
        bytes.append(contentsOf: text.utf8)
        return cells.count - 1
    }

    subscript(_ number: Int) -> Cell { cells[number] }
}
