/// One line of an aligned table, made in a buffer that every line reuses (``ByteBuffer``):
/// each cell's bytes copied in, then the spaces up to its column's width and the two between
/// columns; the last column ends the line. The line goes to the output in one copy.
struct TableLine: ~Copyable {
    /// Each column's width in terminal columns.
    private let widths: [Int]
    private var line = ByteBuffer()

    init(widths: [Int]) {
        self.widths = widths
    }

    /// Copies `bytes` into the cell being made.
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        line.append(bytes)
    }

    /// Ends the cell in `column`, whose text takes `width` terminal columns: pads it to its
    /// column's width and adds the separator, or ends the line after the last column.
    @inline(__always)
    mutating func endCell(width: Int, column: Int) {
        if column == widths.count - 1 {
            line.append(UInt8(ascii: "\n"))
        } else {
            line.append(repeating: UInt8(ascii: " "), count: max(widths[column] - width, 0) + 2)
        }
    }

    /// Copies a cell made before (its bytes among `bytes`), and with a `column` ends it there;
    /// `nil` is an empty cell.
    @inline(__always)
    mutating func cell(_ cell: TableCells.Cell?, from bytes: UnsafeBufferPointer<UInt8>, column: Int? = nil) {
        if let cell { write(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.start + cell.count])) }
        if let column { endCell(width: cell?.width ?? 0, column: column) }
    }

    /// Appends the line to `output` and starts the next one.
    mutating func take(into output: inout ByteBuffer) {
        output.append(line.bytes)
        line.removeAll()
    }
}
