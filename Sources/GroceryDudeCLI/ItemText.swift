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

    /// The table of `item ls`, its columns aligned in terminal columns (``TextWidth``): names
    /// with emoji, flags, accents in either Unicode form or CJK keep the columns straight and are
    /// printed whole.
    static func table(_ rows: [ItemRow]) -> String {
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", "SHOP"]
        let lines = rows.map { row -> [String] in
            let mark = row.item.listed ? (row.item.collected ? "✓" : "•") : " "
            return [mark, String(row.id.description.prefix(8)), QuantityFormat.string(row.item.quantity),
                    row.unitName ?? "", row.name, row.homeLocationName ?? "", row.shopLocationName ?? ""]
        }
        let all = [header] + lines
        let widths = header.indices.map { column in all.map { TextWidth.columns(of: $0[column]) }.max() ?? 0 }
        return all.map { line in
            line.enumerated().map { column, text in
                column == line.count - 1 ? text : TextWidth.pad(text, to: widths[column])
            }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// The JSON of `item ls --json`: one object per item, every key always present (null when
    /// empty), keys in this order. Documented in the README; scripts rely on it.
    static func json(_ rows: [ItemRow]) -> String {
        String(decoding: jsonBytes(rows), as: UTF8.self)
    }

    /// ``json(_:)`` as UTF-8, written straight from the rows.
    static func jsonBytes(_ rows: [ItemRow]) -> [UInt8] {
        var writer = JSONWriter()
        writer.reserveCapacity(rows.count * 300)
        for row in rows { append(row, to: &writer) }
        return writer.bytes
    }

    /// Writes ``json(_:)`` to `output` as it is made, ``chunkBytes`` at a time: 10k items make
    /// 2.5 MB, which made whole, then copied to close the array and again into `Data`, were
    /// half the memory `item ls --json` touched (a page fault for each new page).
    static func writeJSON(_ rows: [ItemRow], to output: FileHandle) throws {
        var writer = JSONWriter()
        writer.reserveCapacity(chunkBytes + 4096)
        for row in rows {
            append(row, to: &writer)
            if writer.pendingByteCount >= chunkBytes { try output.write(contentsOf: writer.takeWritten()) }
        }
        try output.write(contentsOf: writer.finish())
    }

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
