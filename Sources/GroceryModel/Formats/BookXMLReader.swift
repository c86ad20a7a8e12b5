import Foundation

/// Reads the book's `DefaultData.xml`:
/// `<items><item name="…" unit="…" locationathome="…" locationatshop="…"/>…</items>`.
///
/// Empty attributes mean "none". Units and locations are the ones the items name. The file must
/// be UTF-8, and hold exactly that shape: `<items>` at the top, `<item/>`s in it, nothing deeper.
///
/// The file is read by ``StrictXML``, a reader of the XML this shape needs and nothing more, not
/// by Foundation's `XMLParser`: that one is libxml2, which with ICU, zlib and liblzma every
/// process of the app then loaded at start-up, to read one kind of import file (docs/decisions/0125).
public enum BookXMLReader {
    public static func read(_ data: Data) throws -> GroceryArchive {
        try UTF8Text.check(data)
        var builder = Builder()
        do {
            try StrictXML.parse(Array(data)) { element in try builder.add(element) }
        } catch let error as StrictXML.Failure {
            throw ArchiveError.malformed("line \(error.line): \(error.reason)")
        }
        guard builder.sawRoot else { throw ArchiveError.malformed("no <items> element: not the book's XML format") }
        return builder.archive
    }

    /// The archive, element by element.
    private struct Builder {
        var archive = GroceryArchive()
        var sawRoot = false
        private var seen: [CatalogKind: Set<String>] = [:]

        mutating func add(_ element: StrictXML.Element) throws {
            switch element.name {
            case "items" where element.depth == 1:
                sawRoot = true
            case "item" where element.depth == 2:
                guard let itemName = element.attributes["name"] else {
                    throw StrictXML.Failure(line: element.line, reason: "an <item> has no name attribute")
                }
                var item = ItemRecord(name: itemName)
                item.unit = catalog(.unit, element.attributes["unit"])
                item.homeLocation = catalog(.home, element.attributes["locationathome"])
                item.shopLocation = catalog(.shop, element.attributes["locationatshop"])
                archive.items.append(item)
            default:
                throw StrictXML.Failure(
                    line: element.line, reason: "unexpected element <\(element.name)>: not the book's XML format")
            }
        }

        private mutating func catalog(_ kind: CatalogKind, _ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            if seen[kind, default: []].insert(value).inserted {
                archive.append(CatalogRecord(name: value), to: kind)
            }
            return value
        }
    }
}
