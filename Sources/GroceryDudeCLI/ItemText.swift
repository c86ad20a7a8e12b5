import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// How items are printed: one-line descriptions, an aligned table, and the stable JSON of
/// `item ls --json` (documented in docs/command-line.md).
enum ItemText {
    /// `"Milk" (2 L, Fridge → Dairy, listed) [1a2b3c4d]`
    static func describe(_ row: ItemRow) -> String {
        var parts = [
            QuantityFormat.string(row.item.quantity)
                + (row.unitName.map { " \($0.trimmingCharacters(in: .whitespaces))" } ?? "")
        ]
        parts.append("\(row.homeLocationName ?? "no home location") → \(row.shopLocationName ?? "no shop aisle")")
        parts.append(row.item.listed ? (row.item.collected ? "collected" : "listed") : "not listed")
        return "\(row.name.debugDescription) (\(parts.joined(separator: ", "))) [\(row.id.description.prefix(8))]"
    }

    /// Writes the table of `item ls`, its columns aligned in terminal columns (``TextWidth``):
    /// names with emoji, flags, accents in either Unicode form or CJK keep the columns straight
    /// and are printed whole. Written as it is made, ``chunkBytes`` at a time.
    ///
    /// - Parameter shop: a shop's list (`item ls --in`): the items in its walking order, and
    ///   the last column their aisle there.
    /// - Parameter claims: who claimed which item (by ID): "(Ben)" follows its name.
    static func writeTable(
        _ items: ItemListing, shop: ShopListing? = nil, claims: [String: String] = [:], to output: FileHandle
    ) throws {
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkBytes + 4096)
        try appendTable(items, shop: shop, claims: claims, to: &pending) { pending in
            guard pending.count >= chunkBytes else { return }
            try output.write(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
        try output.write(contentsOf: pending)
    }

    /// Appends the table's lines to `output` as UTF-8, calling `flush` after each line. Two
    /// passes over the items: the widths of the columns, then the lines; no string is made for
    /// a line, a cell or a padded cell (10k items made 80k of them), and each unit's and
    /// location's name is measured once.
    private static func appendTable(
        _ items: ItemListing, shop: ShopListing?, claims: [String: String], to output: inout [UInt8],
        flush: (inout [UInt8]) throws -> Void
    ) rethrows {
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", shop == nil ? "SHOP" : "AISLE"]
        let columnCount = header.count
        /// The mark of an item collected, on the shopping list, or neither, measured once.
        let marks = ["✓", "•", " "].map { (text: $0, width: TextWidth.columns(of: $0)) }
        func mark(_ index: Int) -> Int { items.listed(index) ? (items.collected(index) ? 0 : 1) : 2 }
        /// The names of units and locations (columns 3, 5 and 6), as bytes and measured, once
        /// each: 10k items name a few dozen.
        let linkColumns: [(column: Int, kind: CatalogKind)] = [(3, .unit), (5, .home), (6, .shop)]
        let linkNames = linkColumns.map {
            items.names($0.kind).map { (bytes: Array($0.utf8), width: TextWidth.columns(of: $0)) }
        }
        /// A name's width: its byte count when it is printable ASCII.
        func width(_ bytes: ArraySlice<UInt8>) -> Int {
            bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
                ? bytes.count : TextWidth.columns(of: String(decoding: bytes, as: UTF8.self))
        }
        /// " (Ben)" after a claimed item's name, measured once.
        let claimed: [(bytes: [UInt8], width: Int)?] =
            claims.isEmpty
            ? []
            : (0..<items.count).map { index in
                claims[String(decoding: items.id(index), as: UTF8.self)].map { person in
                    (Array(" (\(person))".utf8), TextWidth.columns(of: " (\(person))"))
                }
            }
        func claimWidth(_ index: Int) -> Int { claimed.isEmpty ? 0 : claimed[index]?.width ?? 0 }
        // Quantities are formatted once, for both passes.
        let quantities = (0..<items.count).map { QuantityFormat.string(items.quantity($0)) }
        var widths = header.map { TextWidth.columns(of: $0) }
        for index in 0..<items.count {
            widths[0] = max(widths[0], marks[mark(index)].width)
            widths[1] = max(widths[1], 8)  // the ID's first 8 characters, hexadecimal digits
            widths[2] = max(widths[2], TextWidth.columns(of: quantities[index]))
            widths[4] = max(widths[4], width(items.name(index)) + claimWidth(index))
            for (link, (column, kind)) in linkColumns.enumerated() {
                if let position = items.linked(kind, index) {
                    widths[column] = max(widths[column], linkNames[link][position].width)
                }
            }
        }
        if let shop { widths[6] = max(widths[6], shop.aisles.compactMap { $0 }.map(TextWidth.columns).max() ?? 0) }
        let last = columnCount - 1
        func pad(_ width: Int, column: Int) {
            if column == last {
                output.append(UInt8(ascii: "\n"))
                return
            }
            let padding = widths[column] - width
            if padding > 0 { output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
            output.append(contentsOf: separator)
        }
        func append(_ cell: String, column: Int) {
            output.append(contentsOf: cell.utf8)
            pad(TextWidth.columns(of: cell), column: column)
        }
        /// The name of the unit or location in link column `link` of item `index`.
        func appendLink(_ link: Int, of index: Int) {
            if let position = items.linked(linkColumns[link].kind, index) {
                output.append(contentsOf: linkNames[link][position].bytes)
                pad(linkNames[link][position].width, column: linkColumns[link].column)
            } else {
                pad(0, column: linkColumns[link].column)
            }
        }
        for (column, cell) in header.enumerated() { append(cell, column: column) }
        for index in shop?.order ?? Array(0..<items.count) {
            let mark = marks[mark(index)]
            output.append(contentsOf: mark.text.utf8)
            pad(mark.width, column: 0)
            output.append(contentsOf: items.id(index).prefix(8))
            pad(8, column: 1)
            append(quantities[index], column: 2)
            appendLink(0, of: index)
            let name = items.name(index)
            output.append(contentsOf: name)
            if !claimed.isEmpty, let claim = claimed[index] { output.append(contentsOf: claim.bytes) }
            pad(width(name) + claimWidth(index), column: 4)
            appendLink(1, of: index)
            if let shop { append(shop.aisles[index] ?? "", column: 6) } else { appendLink(2, of: index) }
            try flush(&output)
        }
    }

    private static let separator = Array("  ".utf8)

    /// Writes the JSON of `item ls --json`: one object per item, every key always present (null
    /// when empty), keys in this order. Documented in docs/command-line.md; scripts rely on it.
    ///
    /// Written as it is made, ``chunkBytes`` at a time: 10k items make 2.5 MB, which made whole,
    /// then copied to close the array and again into `Data`, were half the memory the command
    /// touched (a page fault for each new page).
    ///
    /// Each item's `aisles` (model version 3): where it is found in each shop, the default
    /// shop's (its `shopLocation`) first, as `[{"shop", "aisle"}]`; then `claimedBy`: the
    /// person whose claim ("I'll get it") holds on it, or null.
    static func writeJSON(
        _ items: ItemListing, shops: ShopAisles, order: [Int]? = nil, claims: [String: String] = [:],
        to output: FileHandle
    ) throws {
        var writer = JSONWriter()
        writer.reserveCapacity(chunkBytes + 4096)
        // The names of units and locations as JSON strings, made once each.
        let linkJSON = [CatalogKind.unit, .home, .shop].map { kind in
            items.names(kind).map { name in
                var bytes: [UInt8] = []
                JSONText.appendQuoted(name, to: &bytes)
                return bytes
            }
        }
        // `aisles`, after the other keys: made once for each default-shop aisle (most items
        // are in no other shop), built only for the items that are.
        var defaultShop: [UInt8] = []
        JSONText.appendQuoted(shops.defaultShop, to: &defaultShop)
        let inDefaultAisle = linkJSON[2].map { aisle in
            Array("{\"shop\":".utf8) + defaultShop + Array(",\"aisle\":".utf8) + aisle + [UInt8(ascii: "}")]
        }
        let onlyDefault = inDefaultAisle.map { [UInt8(ascii: "[")] + $0 + [UInt8(ascii: "]")] }
        let none = Array("[]".utf8)
        for index in order ?? Array(0..<items.count) {
            append(index, of: items, linkJSON: linkJSON, to: &writer)
            let position = items.linked(.shop, index)
            if !shops.others.isEmpty, let others = shops.others[String(decoding: items.id(index), as: UTF8.self)] {
                var aisles: [UInt8] = [UInt8(ascii: "[")]
                if let position { aisles += inDefaultAisle[position] }
                for found in others {
                    if aisles.count > 1 { aisles.append(UInt8(ascii: ",")) }
                    aisles += Array("{\"shop\":".utf8)
                    JSONText.appendQuoted(found.shop, to: &aisles)
                    aisles += Array(",\"aisle\":".utf8)
                    JSONText.appendQuoted(found.aisle, to: &aisles)
                    aisles.append(UInt8(ascii: "}"))
                }
                aisles.append(UInt8(ascii: "]"))
                writer.append(Key.aisles, json: aisles)
            } else {
                writer.append(Key.aisles, json: position.map { onlyDefault[$0] } ?? none)
            }
            writer.append(
                Key.claimedBy, .string(claims.isEmpty ? nil : claims[String(decoding: items.id(index), as: UTF8.self)]))
            writer.endObject()
            if writer.pendingByteCount >= chunkBytes { try output.write(contentsOf: writer.takeWritten()) }
        }
        try output.write(contentsOf: writer.finish())
    }

    /// How much output is held before it is written.
    static let chunkBytes = 64 << 10

    private static func append(_ index: Int, of items: ItemListing, linkJSON: [[[UInt8]]], to writer: inout JSONWriter)
    {
        func link(_ kind: CatalogKind, _ key: JSONWriter.Key, _ names: [[UInt8]]) {
            if let position = items.linked(kind, index) {
                writer.append(key, json: names[position])
            } else {
                writer.append(key, .string(nil))
            }
        }
        writer.beginObject()
        writer.append(Key.id, text: items.id(index))
        writer.append(Key.name, text: items.name(index))
        writer.append(Key.quantity, .number(items.quantity(index)))
        link(.unit, Key.unit, linkJSON[0])
        link(.home, Key.homeLocation, linkJSON[1])
        link(.shop, Key.shopLocation, linkJSON[2])
        writer.append(Key.listed, .bool(items.listed(index)))
        writer.append(Key.collected, .bool(items.collected(index)))
        writer.append(Key.modified, .date(items.modified(index)))
        if let note = items.note(index) {
            writer.append(Key.note, text: note)
        } else {
            writer.append(Key.note, .string(nil))
        }
        writer.append(Key.photoBytes, .integer(items.photoSize(index) ?? 0))
    }

    /// The keys of an item's object, in their order.
    private enum Key {
        static let id = JSONWriter.Key("id", first: true), name = JSONWriter.Key("name"),
            quantity = JSONWriter.Key("quantity")
        static let unit = JSONWriter.Key("unit"), homeLocation = JSONWriter.Key("homeLocation"),
            shopLocation = JSONWriter.Key("shopLocation")
        static let listed = JSONWriter.Key("listed"), collected = JSONWriter.Key("collected"),
            modified = JSONWriter.Key("modified")
        static let note = JSONWriter.Key("note"), photoBytes = JSONWriter.Key("photoBytes")
        static let aisles = JSONWriter.Key("aisles"), claimedBy = JSONWriter.Key("claimedBy")
    }

    /// Who claimed which item, by the item's ID: nothing when the device does not sync.
    static func claimers(_ household: HouseholdView?) -> [String: String] {
        guard let household else { return [:] }
        return Dictionary(uniqueKeysWithValues: household.claims.map { ($0.key.description, $0.value.person) })
    }

    /// The shops' names and each item's aisles in shops other than the default.
    struct ShopAisles {
        let defaultShop: String
        let others: [String: [ItemAisle]]

        init(_ store: GroceryStore) throws {
            defaultShop = try store.shop(nil).name
            others = try store.otherShopsAisles()
        }

        init(defaultShop: String, others: [String: [ItemAisle]]) {
            self.defaultShop = defaultShop
            self.others = others
        }
    }

    /// A shop's list: the listing's items in the shop's walking order (those found in no aisle
    /// there last, by name), and each one's aisle there, by its place in the listing.
    struct ShopListing {
        let order: [Int]
        let aisles: [String?]

        init(_ items: ItemListing, in shop: ShopID, of store: GroceryStore) throws {
            let places = try store.walkingPlaces(in: shop)
            var aisles = [String?](repeating: nil, count: items.count)
            var ranks = [Int](repeating: Int.max, count: items.count)
            for index in 0..<items.count {
                if let found = places[String(decoding: items.id(index), as: UTF8.self)] {
                    aisles[index] = found.aisle
                    ranks[index] = found.place
                }
            }
            // The listing is in name order: a stable sort by place keeps it within an aisle.
            order = (0..<items.count).enumerated().sorted { a, b in
                ranks[a.element] != ranks[b.element] ? ranks[a.element] < ranks[b.element] : a.offset < b.offset
            }.map(\.element)
            self.aisles = aisles
        }
    }
}
