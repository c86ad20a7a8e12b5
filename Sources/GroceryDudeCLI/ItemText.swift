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
        // A buffer of its own, not a `[UInt8]`: appending each line to an array cost about 40
        // instructions a line more, its uniqueness and capacity checks (docs/decisions/0177).
        var pending = ByteBuffer(capacity: chunkBytes + 4096)
        try appendTable(items, shop: shop, claims: claims, to: &pending) { pending in
            guard pending.count >= chunkBytes else { return }
            try output.write(contentsOf: UnsafeRawBufferPointer(pending.bytes))
            pending.removeAll()
        }
        try output.write(contentsOf: UnsafeRawBufferPointer(pending.bytes))
    }

    /// Appends the table's lines to `output` as UTF-8, calling `flush` after each line. Two
    /// passes over the items: the widths of the columns, then the lines. The cells that repeat
    /// (marks, units and locations, quantities, claims) are made and measured once
    /// (``TableCells``); each line is made in one buffer (``TableLine``) from those and from the
    /// listing's own bytes, and no string is made for a line, a cell or a padded cell.
    private static func appendTable(
        _ items: ItemListing, shop: ShopListing?, claims: [String: String], to output: inout ByteBuffer,
        flush: (inout ByteBuffer) throws -> Void
    ) rethrows {
        var cells = TableCells()
        let header = ["", "ID", "QTY", "UNIT", "NAME", "HOME", shop == nil ? "SHOP" : "AISLE"].map { cells.add($0) }
        /// The mark of an item collected, on the shopping list, or neither.
        let marks = ["✓", "•", " "].map { cells.add($0) }
        func mark(_ index: Int) -> Int { marks[items.listed(index) ? (items.collected(index) ? 0 : 1) : 2] }
        /// The names of units and locations (columns 3, 5 and 6): 10k items name a few dozen.
        let linkColumns: [(column: Int, kind: CatalogKind)] = [(3, .unit), (5, .home), (6, .shop)]
        let linkNames = linkColumns.map { items.names($0.kind).map { cells.add($0) } }
        /// Quantities repeat (a list has a few dozen different ones): each is formatted once.
        var quantityCells: [Double: Int] = [:]
        let quantities = (0..<items.count).map { index in
            let quantity = items.quantity(index)
            if let known = quantityCells[quantity] { return known }
            let cell = cells.add(QuantityFormat.string(quantity))
            quantityCells[quantity] = cell
            return cell
        }
        /// " (Ben)" after a claimed item's name.
        let claimed: [Int?] =
            claims.isEmpty
            ? []
            : (0..<items.count).map { index in
                claims[String(decoding: items.id(index), as: UTF8.self)].map { cells.add(" (\($0))") }
            }
        /// A shop's list: each item's aisle there, the last column.
        let aisles = shop.map { $0.aisles.map { cells.add($0 ?? "") } }
        let measured = cells
        /// Each name's width with its claim: its byte count when it is printable ASCII.
        let nameWidths = items.withUnsafeText { text in
            (0..<items.count).map { index in
                let name = UnsafeBufferPointer(rebasing: text[items.nameRange(index)])
                let width =
                    name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
                    ? name.count : TextWidth.columns(of: String(decoding: name, as: UTF8.self))
                return width + (claimed.isEmpty ? 0 : claimed[index].map { measured[$0].width } ?? 0)
            }
        }
        /// The name of the unit or location in link column `link` of item `index`, if any.
        func linked(_ link: Int, of index: Int) -> TableCells.Cell? {
            items.linked(linkColumns[link].kind, index).map { measured[linkNames[link][$0]] }
        }
        var widths = header.map { measured[$0].width }
        for index in 0..<items.count {
            widths[0] = max(widths[0], measured[mark(index)].width)
            widths[1] = max(widths[1], 8)  // the ID's first 8 characters, hexadecimal digits
            widths[2] = max(widths[2], measured[quantities[index]].width)
            widths[4] = max(widths[4], nameWidths[index])
            for (link, (column, kind)) in linkColumns.enumerated() {
                if let position = items.linked(kind, index) {
                    widths[column] = max(widths[column], measured[linkNames[link][position]].width)
                }
            }
        }
        if let aisles { widths[6] = max(widths[6], aisles.map { measured[$0].width }.max() ?? 0) }
        try measured.bytes.withUnsafeBufferPointer { cellBytes in
            try items.withUnsafeText { text in
                // The line is the closure's own, used by no nested function: every access to it
                // is checked when compiled, none when it runs.
                var line = TableLine(widths: widths)
                for (column, cell) in header.enumerated() { line.cell(measured[cell], from: cellBytes, column: column) }
                line.take(into: &output)
                for index in shop?.order ?? Array(0..<items.count) {
                    line.cell(measured[mark(index)], from: cellBytes, column: 0)
                    line.write(UnsafeBufferPointer(rebasing: text[items.idRange(index).prefix(8)]))
                    line.endCell(width: 8, column: 1)
                    line.cell(measured[quantities[index]], from: cellBytes, column: 2)
                    line.cell(linked(0, of: index), from: cellBytes, column: 3)
                    line.write(UnsafeBufferPointer(rebasing: text[items.nameRange(index)]))
                    if !claimed.isEmpty, let claim = claimed[index] { line.cell(measured[claim], from: cellBytes) }
                    line.endCell(width: nameWidths[index], column: 4)
                    line.cell(linked(1, of: index), from: cellBytes, column: 5)
                    if let aisles {
                        line.cell(measured[aisles[index]], from: cellBytes, column: 6)
                    } else {
                        line.cell(linked(2, of: index), from: cellBytes, column: 6)
                    }
                    line.take(into: &output)
                    try flush(&output)
                }
            }
        }
    }

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
        // The pieces every item repeats, one after another in one array, lent for the whole
        // listing: written from there, none is retained and released at each use.
        var pieces = JSONPieces()
        let linkPieces = linkJSON.map { $0.map { pieces.add($0) } }
        let onlyDefault = inDefaultAisle.map { pieces.add([UInt8(ascii: "[")] + $0 + [UInt8(ascii: "]")]) }
        let none = pieces.add(Array("[]".utf8))
        let lent = pieces
        try items.withUnsafeText { text in
            try lent.withUnsafeBytes { piece in
                let links = linkPieces.map { $0.map(piece) }
                for index in order ?? Array(0..<items.count) {
                    append(
                        index, of: items, text: text, units: links[0], homes: links[1], aisles: links[2], to: &writer)
                    let position = items.linked(.shop, index)
                    if !shops.others.isEmpty,
                        let others = shops.others[String(decoding: text[items.idRange(index)], as: UTF8.self)]
                    {
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
                        writer.append(Key.aisles, json: piece(position.map { onlyDefault[$0] } ?? none))
                    }
                    if !claims.isEmpty, let person = claims[String(decoding: text[items.idRange(index)], as: UTF8.self)]
                    {
                        writer.append(Key.claimedBy, .string(person))
                    } else {
                        writer.appendNull(Key.claimedBy)
                    }
                    writer.endObject()
                    if writer.pendingByteCount >= chunkBytes { try writer.write(to: output) }
                }
            }
        }
        try writer.finish(to: output)
    }

    /// How much output is held before it is written.
    static let chunkBytes = 64 << 10

    /// Item `index`'s keys but `aisles` and `claimedBy`, its texts from `text` (the listing's,
    /// lent) and the names of its unit and locations from the pieces made for them.
    private static func append(
        _ index: Int, of items: ItemListing, text: UnsafeBufferPointer<UInt8>, units: [UnsafeBufferPointer<UInt8>],
        homes: [UnsafeBufferPointer<UInt8>], aisles: [UnsafeBufferPointer<UInt8>], to writer: inout JSONWriter
    ) {
        func link(_ kind: CatalogKind, _ key: JSONWriter.Key, _ names: [UnsafeBufferPointer<UInt8>]) {
            if let position = items.linked(kind, index) {
                writer.append(key, json: names[position])
            } else {
                writer.appendNull(key)
            }
        }
        writer.beginObject()
        writer.append(Key.id, plainText: UnsafeBufferPointer(rebasing: text[items.idRange(index)]))
        writer.append(Key.name, text: UnsafeBufferPointer(rebasing: text[items.nameRange(index)]))
        writer.append(Key.quantity, number: items.quantity(index))
        link(.unit, Key.unit, units)
        link(.home, Key.homeLocation, homes)
        link(.shop, Key.shopLocation, aisles)
        writer.append(Key.listed, bool: items.listed(index))
        writer.append(Key.collected, bool: items.collected(index))
        writer.append(Key.modified, date: items.modified(index))
        if let note = items.noteRange(index) {
            writer.append(Key.note, text: UnsafeBufferPointer(rebasing: text[note]))
        } else {
            writer.appendNull(Key.note)
        }
        writer.append(Key.photoBytes, integer: items.photoSize(index) ?? 0)
    }

    /// JSON texts made once and written many times (a unit's name, the `aisles` of an aisle of
    /// the default shop), one after another in one array.
    private struct JSONPieces {
        private var bytes: [UInt8] = []
        private var ranges: [Range<Int>] = []

        /// Adds `piece`; its number, for the lookup ``withUnsafeBytes(_:)`` lends.
        mutating func add(_ piece: [UInt8]) -> Int {
            ranges.append(bytes.count..<bytes.count + piece.count)
            bytes += piece
            return ranges.count - 1
        }

        /// Lends a lookup of the pieces' bytes by number, for the time of `body`.
        func withUnsafeBytes<R>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try bytes.withUnsafeBufferPointer { all in
                try body { UnsafeBufferPointer(rebasing: all[ranges[$0]]) }
            }
        }
    }

    /// The keys of an item's object, in their order, as they are written (the first without
    /// a separator).
    private enum Key {
        static var id: JSONWriter.Key { .init("\"id\": ") }
        static var name: JSONWriter.Key { .init(", \"name\": ") }
        static var quantity: JSONWriter.Key { .init(", \"quantity\": ") }
        static var unit: JSONWriter.Key { .init(", \"unit\": ") }
        static var homeLocation: JSONWriter.Key { .init(", \"homeLocation\": ") }
        static var shopLocation: JSONWriter.Key { .init(", \"shopLocation\": ") }
        static var listed: JSONWriter.Key { .init(", \"listed\": ") }
        static var collected: JSONWriter.Key { .init(", \"collected\": ") }
        static var modified: JSONWriter.Key { .init(", \"modified\": ") }
        static var note: JSONWriter.Key { .init(", \"note\": ") }
        static var photoBytes: JSONWriter.Key { .init(", \"photoBytes\": ") }
        static var aisles: JSONWriter.Key { .init(", \"aisles\": ") }
        static var claimedBy: JSONWriter.Key { .init(", \"claimedBy\": ") }
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
