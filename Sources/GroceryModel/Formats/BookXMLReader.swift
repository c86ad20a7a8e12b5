import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the book's `DefaultData.xml`:
/// `<items><item name="…" unit="…" locationathome="…" locationatshop="…"/>…</items>`.
///
/// Empty attributes mean "none". Units and locations are the ones the items name. The file must
/// be UTF-8, and hold exactly that shape: `<items>` at the top, `<item/>`s in it, nothing deeper.
public enum BookXMLReader {
    public static func read(_ data: Data) throws -> GroceryArchive {
        try UTF8Text.check(data)
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        // swift-corelibs' parser can return true after an error: check both.
        let parsed = parser.parse()
        if let error = delegate.error { throw error }
        if !parsed || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw ArchiveError.malformed("line \(parser.lineNumber): not well-formed XML (\(describe(code)))")
        }
        guard delegate.sawRoot else { throw ArchiveError.malformed("no <items> element: not the book's XML format") }
        return delegate.archive
    }

    /// libxml2's codes that a damaged or cut-off file gives.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 5: "the document is cut off or has extra content after </items>"
        case 76: "a tag is not closed"
        case 73, 74, 77: "a tag is not closed"
        case 39, 41: "a bad attribute"
        case 89: "an entity expands too much or refers to itself"
        default: "parser error \(code)"
        }
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var archive = GroceryArchive()
        var error: ArchiveError?
        var sawRoot = false
        /// How many elements are open.
        private var depth = 0
        private var seen: [CatalogKind: Set<String>] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            switch name {
            case "items" where depth == 1:
                sawRoot = true
            case "item" where depth == 2:
                guard let itemName = attributes["name"] else {
                    error = .malformed("line \(parser.lineNumber): an <item> has no name attribute")
                    parser.abortParsing()
                    return
                }
                var item = ItemRecord(name: itemName)
                item.unit = catalog(.unit, attributes["unit"])
                item.homeLocation = catalog(.home, attributes["locationathome"])
                item.shopLocation = catalog(.shop, attributes["locationatshop"])
                archive.items.append(item)
            default:
                error = .malformed("line \(parser.lineNumber): unexpected element <\(name)>: not the book's XML format")
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil {
                let code = (parseError as NSError).code
                error = .malformed("line \(parser.lineNumber): not well-formed XML (\(BookXMLReader.describe(code)))")
            }
        }

        private func catalog(_ kind: CatalogKind, _ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            if seen[kind, default: []].insert(value).inserted {
                archive.append(CatalogRecord(name: value), to: kind)
            }
            return value
        }
    }
}
