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
    /// passes over the rows: the widths of the columns, then the lines; no string is made for a
    /// line or a padded cell (10k items made 80k of them).
    private static func appendTable(_ rows: [ItemRow], to output: inout [UInt8], flush: (inout [UInt8]) throws -> Void) rethrows {
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", "SHOP"]
        func cells(_ row: ItemRow, quantity: String) -> [String] {
            let mark = row.item.listed ? (row.item.collected ? "✓" : "•") : " "
            return [mark, String(row.id.description.prefix(8)), quantity,
                    row.unitName ?? "", row.name, row.homeLocationName ?? "", row.shopLocationName ?? ""]
        }
        // Quantities are formatted once, for both passes.
        let quantities = rows.map { QuantityFormat.string($0.item.quantity) }
        var widths = header.map { TextWidth.columns(of: $0) }
        for (row, quantity) in zip(rows, quantities) {
            for (column, cell) in cells(row, quantity: quantity).enumerated() {
                widths[column] = max(widths[column], TextWidth.columns(of: cell))
            }
        }
        let last = header.count - 1
        func appendLine(_ line: [String]) {
            for (column, cell) in line.enumerated() {
                output.append(contentsOf: cell.utf8)
                if column == last { break }
                let padding = widths[column] - TextWidth.columns(of: cell)
                if padding > 0 { output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
                output.append(contentsOf: separator)
            }
            output.append(UInt8(ascii: "\n"))
        }
        appendLine(header)
        for (row, quantity) in zip(rows, quantities) {
            appendLine(cells(row, quantity: quantity))
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
        for row in rows {
            append(row, to: &writer)
            if writer.pendingByteCount >= chunkBytes { try output.write(contentsOf: writer.takeWritten()) }
        }
        try output.write(contentsOf: writer.finish())
    }

    /// How much output is held before it is written.
    static let chunkBytes = 64 << 10

    private static func append(_ row: ItemRow, to writer: inout JSONWriter) {
        writer.appendObject([
            "id": .string(row.id.description),
            "name": .string(row.name),
            "quantity": .number(row.item.quantity),
            "unit": .string(row.unitName),
            "homeLocation": .string(row.homeLocationName),
            "shopLocation": .string(row.shopLocationName),
            "listed": .bool(row.item.listed),
            "collected": .bool(row.item.collected),
            "modified": .date(row.item.modified),
            "note": .string(row.item.note),
            "photoBytes": .integer(row.photoSize ?? 0),
        ])
    }
}
