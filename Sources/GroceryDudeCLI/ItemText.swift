import Foundation
import GroceryModel

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

    static func table(_ rows: [ItemRow]) -> String {
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", "SHOP"]
        let lines = rows.map { row -> [String] in
            let mark = row.item.listed ? (row.item.collected ? "✓" : "•") : " "
            return [mark, String(row.id.description.prefix(8)), QuantityFormat.string(row.item.quantity),
                    row.unitName ?? "", row.name, row.homeLocationName ?? "", row.shopLocationName ?? ""]
        }
        let all = [header] + lines
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { line in
            line.enumerated().map { column, text in
                column == line.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// One JSON object per item, keys sorted, every key always present (null when empty).
    struct JSONItem: Encodable {
        let row: ItemRow

        enum Keys: String, CodingKey {
            case id, name, quantity, unit, homeLocation, shopLocation, listed, collected, modified, note, photoBytes
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(row.id.description, forKey: .id)
            try container.encode(row.name, forKey: .name)
            try container.encode(row.item.quantity, forKey: .quantity)
            try container.encode(row.unitName, forKey: .unit)
            try container.encode(row.homeLocationName, forKey: .homeLocation)
            try container.encode(row.shopLocationName, forKey: .shopLocation)
            try container.encode(row.item.listed, forKey: .listed)
            try container.encode(row.item.collected, forKey: .collected)
            try container.encode(Timestamp.string(row.item.modified), forKey: .modified)
            try container.encode(row.item.note, forKey: .note)
            try container.encode(row.photoSize ?? 0, forKey: .photoBytes)
        }
    }

    static func json(_ rows: [ItemRow]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows.map(JSONItem.init)), as: UTF8.self) + "\n"
    }
}
