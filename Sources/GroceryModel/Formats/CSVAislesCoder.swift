import Foundation

/// The project's second CSV kind, `csv-aisles`: where items are in every shop, one row per
/// item in a shop's aisle, so that a spreadsheet of shops and aisles goes both ways.
///
/// ```
/// shop,aisle,position,item
/// ,Dairy,,Milk
/// Aldi,Produce,0.5,Apples
/// Aldi,Chilled,,Milk
/// Aldi,Bakery,,
/// Lidl,,,
/// ```
/// An empty `shop` is the default shop, whatever its name in either list (as the other CSV's
/// `shopLocation` is its aisle); a shop named is matched by name, so the default shop's name
/// works too. A row without an item is an aisle no item is in; a row with neither aisle nor
/// item is a shop without aisles. `position` (a moved aisle's place in its shop's walking
/// order, ``PlainDecimal``'s rule) is the aisle's: repeated on each of its rows, alike. An
/// export writes the default shop first, then the others, each's aisles in walking order. An
/// import finds or makes the shops, aisles and items the rows name. The header names the
/// columns in any order (`shop` and `aisle` are required); the file must be UTF-8.
public enum CSVAislesCoder {
    static let columns = ["shop", "aisle", "position", "item"]

    /// Whether a CSV file is this kind rather than ``CSVArchiveCoder``'s: its header (the first
    /// line) has a `shop` column, which the other kind's has not.
    static func isAislesFile(_ data: Data) -> Bool {
        let firstLine = data.prefix(4096).prefix { $0 != UInt8(ascii: "\n") }
        let header = String(decoding: firstLine, as: UTF8.self)
        return header.split(separator: ",").contains { name in
            name.trimmingCharacters(in: CharacterSet(charactersIn: " \"\r\u{FEFF}")) == "shop"
        }
    }

    public static func encode(_ archive: GroceryArchive) -> Data {
        var rows = [columns]
        let shops = archive.shops ?? [ShopRecord(name: GrocerySchema.defaultShopName, isDefault: true)]
        // Item names by shop (the default one: "") and aisle, in the archive's order of items.
        var itemsIn: [String: [String: [String]]] = [:]
        for item in archive.items {
            if let aisle = item.shopLocation { itemsIn["", default: [:]][aisle, default: []].append(item.name) }
            for found in item.aisles ?? [] {
                itemsIn[found.shop, default: [:]][found.aisle, default: []].append(item.name)
            }
        }
        for shop in shops.sorted(by: { $0.isDefault && !$1.isDefault }) {
            let name = shop.isDefault ? "" : shop.name
            let aisles = shop.isDefault ? archive.shopLocations : shop.aisles ?? []
            let ordered = WalkingOrder.ordered(aisles, id: \.name, name: \.name, position: \.position).map(\.aisle)
            if ordered.isEmpty && !shop.isDefault { rows.append([name, "", "", ""]) }
            for aisle in ordered {
                let position = aisle.position.map(PlainDecimal.string) ?? ""
                let items = itemsIn[name]?[aisle.name] ?? []
                if items.isEmpty { rows.append([name, aisle.name, position, ""]) }
                for item in items { rows.append([name, aisle.name, position, item]) }
            }
        }
        return Data(CSVTable.write(rows).utf8)
    }

    public static func decode(_ data: Data) throws -> GroceryArchive {
        var builder = Builder()
        for (line, cell) in try CSVTable.records(data, columns: columns, required: ["shop", "aisle"]) {
            do {
                try builder.add(cell, line: line)
            } catch let error as GroceryError {
                throw ArchiveError.malformed("line \(line): \(error.description)")
            } catch let fault as RecordFault {
                throw ArchiveError.malformed("line \(line): \(fault.reason)")
            }
        }
        return builder.archive
    }

    /// The archive the rows describe, built row by row. The default shop's aisles are the
    /// archive's `shopLocations`, an item's aisle there its `shopLocation`.
    private struct Builder {
        var archive: GroceryArchive = {
            var archive = GroceryArchive()
            archive.version = GroceryArchive.shopsVersion
            archive.shops = []
            return archive
        }()
        /// Each shop's index in the archive's shops (the default shop, "", has none).
        var shopIndex: [String: Int] = [:]
        /// Each aisle's index in its shop's aisles, and the line that gave it a position.
        var aisleIndex: [String: [String: (index: Int, positionLine: Int?)]] = [:]
        var itemIndex: [String: Int] = [:]
        /// The line that put an item in a shop, by item then shop.
        var itemLines: [String: [String: Int]] = [:]

        mutating func add(_ cell: [String: String], line: Int) throws {
            if cell.isEmpty { return }  // a row of empty cells
            let shop = try cell["shop"].map { try Validation.importedName($0, field: "shop name") } ?? ""
            let position = try cell["position"].map { text in
                guard let value = PlainDecimal.parse(text),
                    GrocerySchema.positionRule.violation(of: .double(value)) == nil
                else {
                    throw RecordFault("position \(text.debugDescription) is not a plain decimal number within ±1e15")
                }
                return value
            }
            let item = try cell["item"].map { try Validation.importedName($0, field: "item name") }
            if !shop.isEmpty, shopIndex[shop] == nil {
                shopIndex[shop] = archive.shops!.count
                archive.shops!.append(ShopRecord(name: shop, aisles: []))
            }
            guard let rawAisle = cell["aisle"] else {
                if position != nil { throw RecordFault("a position needs an aisle") }
                if let item { throw RecordFault("the item \(item.debugDescription) has no aisle") }
                return
            }
            let aisle = try Validation.importedName(rawAisle, field: "aisle name")
            try add(aisle: aisle, position: position, of: shop, line: line)
            if let item { try add(item: item, in: aisle, of: shop, line: line) }
        }

        private mutating func add(aisle: String, position: Double?, of shop: String, line: Int) throws {
            let s = shopIndex[shop]
            var aisles = s.map { archive.shops![$0].aisles ?? [] } ?? archive.shopLocations
            defer {
                if let s { archive.shops![s].aisles = aisles } else { archive.shopLocations = aisles }
            }
            guard let found = aisleIndex[shop]?[aisle] else {
                aisleIndex[shop, default: [:]][aisle] = (aisles.count, position == nil ? nil : line)
                aisles.append(CatalogRecord(name: aisle, position: position))
                return
            }
            guard let position else { return }
            if let current = aisles[found.index].position, current != position, let other = found.positionLine {
                let shopName = shop.isEmpty ? "the default shop" : shop.debugDescription
                throw RecordFault(
                    "aisle \(aisle.debugDescription) of \(shopName) has another position on line \(other)")
            }
            aisles[found.index].position = position
            aisleIndex[shop]![aisle]!.positionLine = line
        }

        private mutating func add(item: String, in aisle: String, of shop: String, line: Int) throws {
            if let other = itemLines[item]?[shop] {
                let shopName = shop.isEmpty ? "the default shop" : shop.debugDescription
                throw RecordFault(
                    "\(item.debugDescription) is in a second aisle of \(shopName) (line \(other) has the first)")
            }
            itemLines[item, default: [:]][shop] = line
            let i: Int
            if let found = itemIndex[item] {
                i = found
            } else {
                i = archive.items.count
                itemIndex[item] = i
                archive.items.append(ItemRecord(name: item))
            }
            if shop.isEmpty {
                archive.items[i].shopLocation = aisle
            } else {
                archive.items[i].aisles = (archive.items[i].aisles ?? []) + [ItemAisleRecord(shop: shop, aisle: aisle)]
            }
        }
    }
}
