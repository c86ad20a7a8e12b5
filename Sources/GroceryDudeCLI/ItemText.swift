import Foundation
import GroceryModel
import TerminalUI

/// How items are printed: one-line descriptions, an aligned table, and the stable JSON of
/// `item ls --json` (documented in the README).
enum ItemText {
    /// `"Milk" (2 L, Fridge → Dairy, listed) [1a2b3c4d]`
    static func describe(_ row: ItemRow) -> String {
        var parts = [QuantityFormat.string(row.item.quantity) + (row.unitName.map { " \($0.trimmingCharacters(in: .whitespaces))" } ?? "")]
        parts.append("\(row.homeLocationName ?? "no home location") → \(row.shopLocationName ?? "no shop aisle")")
        parts.append(row.item.listed ? (row.item.collected ? "collected" : "listed") : "not listed")
        return "\(row.name.debugDescription) (\(parts.joined(separator: ", "))) [\(row.id.description.prefix(8))]"
    }

    /// Writes the table of `item ls`, its columns aligned in terminal columns (``TextWidth``):
    /// names with emoji, flags, accents in either Unicode form or CJK keep the columns straight
    /// and are printed whole. Written as it is made, ``chunkBytes`` at a time.
    static func writeTable(_ rows: [ItemRow], to output: FileHandle) throws {
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkBytes + 4096)
        try appendTable(rows, to: &pending) { pending in
            guard pending.count >= chunkBytes else { return }
            try output.write(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
        try output.write(contentsOf: pending)
    }

    /// Appends the table's lines to `output` as UTF-8, calling `flush` after each line. Two
    /// passes over the rows: the widths of the cells (kept for the second pass), then the lines;
    /// no string is made for a line, a row's cells or a padded cell (10k items made 80k of them).
    private static func appendTable(_ rows: [ItemRow], to output: inout [UInt8], flush: (inout [UInt8]) throws -> Void) rethrows {
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", "SHOP"]
        let columnCount = header.count
        /// The mark of an item collected, on the shopping list, or neither, measured once.
        let marks = ["✓", "•", " "].map { (text: $0, width: TextWidth.columns(of: $0)) }
        func mark(_ item: Item) -> Int { item.listed ? (item.collected ? 0 : 1) : 2 }
        /// Cell `column` of row `index` (the mark's and the ID's are written apart). Rows are read
        /// in place, by index: a row copied out (a loop over the rows, a `zip`) retained and
        /// released each of its strings, half the table's time at 10k items.
        func text(_ index: Int, _ column: Int) -> String {
            switch column {
            case 2: quantities[index]
            case 3: rows[index].unitName ?? ""
            case 4: rows[index].item.name
            case 5: rows[index].homeLocationName ?? ""
            default: rows[index].shopLocationName ?? ""
            }
        }
        // Quantities are formatted once, and every cell measured once, for both passes.
        let quantities = rows.map { QuantityFormat.string($0.item.quantity) }
        var cellWidths = [Int](repeating: 0, count: rows.count * columnCount)
        var widths = header.map { TextWidth.columns(of: $0) }
        for index in rows.indices {
            cellWidths[index * columnCount] = marks[mark(rows[index].item)].width
            cellWidths[index * columnCount + 1] = 8  // the ID's first 8 characters, hexadecimal digits
            for column in 2..<columnCount { cellWidths[index * columnCount + column] = TextWidth.columns(of: text(index, column)) }
            for column in 0..<columnCount { widths[column] = max(widths[column], cellWidths[index * columnCount + column]) }
        }
        let last = columnCount - 1
        func append(_ cell: String, width: Int, column: Int, prefix: Int = .max) {
            var cell = cell
            cell.withUTF8 { bytes in output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes.prefix(prefix))) }
            if column == last {
                output.append(UInt8(ascii: "\n"))
                return
            }
            let padding = widths[column] - width
            if padding > 0 { output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
            output.append(contentsOf: separator)
        }
        for (column, cell) in header.enumerated() { append(cell, width: TextWidth.columns(of: cell), column: column) }
        for index in rows.indices {
            let measured = index * columnCount
            append(marks[mark(rows[index].item)].text, width: cellWidths[measured], column: 0)
            append(rows[index].item.id.description, width: cellWidths[measured + 1], column: 1, prefix: 8)
            for column in 2..<columnCount { append(text(index, column), width: cellWidths[measured + column], column: column) }
            try flush(&output)
        }
    }

    private static let separator = Array("  ".utf8)

    /// Writes the JSON of `item ls --json`: one object per item, every key always present (null
    /// when empty), keys in this order. Documented in the README; scripts rely on it.
    ///
    /// Written as it is made, ``chunkBytes`` at a time: 10k items make 2.5 MB, which made whole,
    /// then copied to close the array and again into `Data`, were half the memory the command
    /// touched (a page fault for each new page).
    static func writeJSON(_ rows: [ItemRow], to output: FileHandle) throws {
        var writer = JSONWriter()
        writer.reserveCapacity(chunkBytes + 4096)
        for index in rows.indices {
            append(rows[index], to: &writer)
            if writer.pendingByteCount >= chunkBytes { try output.write(contentsOf: writer.takeWritten()) }
        }
        try output.write(contentsOf: writer.finish())
    }

    /// How much output is held before it is written.
    static let chunkBytes = 64 << 10

    private static func append(_ row: ItemRow, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.append(Key.id, .string(row.id.description))
        writer.append(Key.name, .string(row.name))
        writer.append(Key.quantity, .number(row.item.quantity))
        writer.append(Key.unit, .string(row.unitName))
        writer.append(Key.homeLocation, .string(row.homeLocationName))
        writer.append(Key.shopLocation, .string(row.shopLocationName))
        writer.append(Key.listed, .bool(row.item.listed))
        writer.append(Key.collected, .bool(row.item.collected))
        writer.append(Key.modified, .date(row.item.modified))
        writer.append(Key.note, .string(row.item.note))
        writer.append(Key.photoBytes, .integer(row.photoSize ?? 0))
        writer.endObject()
    }

    /// The keys of an item's object, in their order.
    private enum Key {
        static let id = JSONWriter.Key("id", first: true), name = JSONWriter.Key("name"), quantity = JSONWriter.Key("quantity")
        static let unit = JSONWriter.Key("unit"), homeLocation = JSONWriter.Key("homeLocation"), shopLocation = JSONWriter.Key("shopLocation")
        static let listed = JSONWriter.Key("listed"), collected = JSONWriter.Key("collected"), modified = JSONWriter.Key("modified")
        static let note = JSONWriter.Key("note"), photoBytes = JSONWriter.Key("photoBytes")
    }
}
