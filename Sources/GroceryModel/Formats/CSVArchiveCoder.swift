import Foundation

/// The project's own CSV format: a header row, then one row per object, its `kind` saying what
/// it is (`item`, `unit`, `homeLocation`, `shopLocation`), so that units and locations no item
/// uses survive a round trip too.
///
/// ```
/// kind,name,quantity,unit,homeLocation,shopLocation,listed,collected,modified,note,photo
/// unit,kg,,,,,,,2026-11-21T10:00:00.000Z,,
/// item,Flour,1.5,kg,Pantry,Aisle 2,true,false,2026-11-21T10:00:00.000Z,,
/// ```
/// Empty cells are absent values; photos are base64; quantities follow ``PlainDecimal``'s rule;
/// dates are ISO 8601 from 1970 to 9999 (``FileDate``). The file must be UTF-8.
public enum CSVArchiveCoder {
    static let columns = [
        "kind", "name", "quantity", "unit", "homeLocation", "shopLocation",
        "listed", "collected", "modified", "note", "photo",
    ]
    static let catalogKinds: [(String, CatalogKind)] = [
        ("unit", .unit), ("homeLocation", .home), ("shopLocation", .shop),
    ]

    public static func encode(_ archive: GroceryArchive) -> Data {
        var rows = [columns]
        for (label, kind) in catalogKinds {
            for record in archive.records(kind) {
                rows.append([
                    label, record.name, "", "", "", "", "", "", record.modified.map(Timestamp.string) ?? "", "", "",
                ])
            }
        }
        for item in archive.items {
            rows.append([
                "item", item.name, item.quantity.map(PlainDecimal.string) ?? "", item.unit ?? "",
                item.homeLocation ?? "", item.shopLocation ?? "",
                item.listed.map(String.init) ?? "", item.collected.map(String.init) ?? "",
                item.modified.map(Timestamp.string) ?? "", item.note ?? "", item.photo?.base64EncodedString() ?? "",
            ])
        }
        return Data(CSVTable.write(rows).utf8)
    }

    public static func decode(_ data: Data) throws -> GroceryArchive {
        var archive = GroceryArchive()
        for (line, cell) in try CSVTable.records(data, columns: columns, required: ["name"]) {
            guard let name = cell["name"] else { throw ArchiveError.malformed("line \(line): the name is empty") }
            let modified = try cell["modified"].map { text in
                guard let date = Timestamp.parse(text) else {
                    throw ArchiveError.malformed("line \(line): \(text.debugDescription) is not an ISO 8601 date")
                }
                guard FileDate.isValid(date) else {
                    throw ArchiveError.malformed(
                        "line \(line): \(text.debugDescription) is not a date \(FileDate.range)")
                }
                return date
            }
            let kind = cell["kind"] ?? "item"
            if let catalog = catalogKinds.first(where: { $0.0 == kind })?.1 {
                archive.append(CatalogRecord(name: name, modified: modified), to: catalog)
                continue
            }
            guard kind == "item" else {
                throw ArchiveError.malformed("line \(line): unknown kind \(kind.debugDescription)")
            }
            var item = ItemRecord(name: name)
            if let text = cell["quantity"] {
                guard let quantity = PlainDecimal.parse(text) else {
                    throw ArchiveError.malformed(
                        "line \(line): quantity \(text.debugDescription) is not a plain decimal number")
                }
                item.quantity = quantity
            }
            item.unit = cell["unit"]
            item.homeLocation = cell["homeLocation"]
            item.shopLocation = cell["shopLocation"]
            item.listed = try cell["listed"].map { try boolean($0, line: line) }
            item.collected = try cell["collected"].map { try boolean($0, line: line) }
            item.modified = modified
            item.note = cell["note"]
            if let text = cell["photo"] {
                guard let photo = Data(base64Encoded: text) else {
                    throw ArchiveError.malformed("line \(line): the photo is not base64")
                }
                item.photo = photo
            }
            archive.items.append(item)
        }
        return archive
    }

    private static func boolean(_ text: String, line: Int) throws -> Bool {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw ArchiveError.malformed("line \(line): \(text.debugDescription) is not true or false")
        }
    }
}
