import Foundation
import TestSupport
import Testing

@testable import GroceryModel

/// The book's XML as XML allows it to be written, and what XML does not allow, line by line.
@Suite("Reading the book's XML")
struct StrictXMLTests {
    func items(_ text: String) throws -> [ItemRecord] {
        try BookXMLReader.read(Data(text.utf8)).items
    }

    func refusal(_ text: String) -> String? {
        do {
            _ = try BookXMLReader.read(Data(text.utf8))
            return nil
        } catch ArchiveError.malformed(let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    /// Every way of writing the same two items reads the same two items.
    @Test(arguments: [
        #"<items><item name="Fish &amp; Chips" unit="kg"/><item name="Tea" locationatshop="Aisle 1"/></items>"#,
        "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<items>\n  <item name=\"Fish &amp; Chips\" unit=\"kg\"/>\n  <item name=\"Tea\" locationatshop=\"Aisle 1\"/>\n</items>\n",
        #"<!-- a comment --><?app hint?><items><!-- - --><item name='Fish &#38; Chips' unit = 'kg' ></item>text <![CDATA[<b>]]> &lt;<item locationatshop="Aisle&#x20;1" name="Tea"/></items><!-- end -->"#,
        "<items\n><item\tname=\"Fish &amp; Chips\"\r\nunit=\"kg\"/><item name=\"Tea\" unit=\"\" locationatshop=\"Aisle&#32;1\"/></items\n>",
    ])
    func theSameItemsWrittenAnyWayXMLAllows(_ text: String) throws {
        let read = try items(text)
        #expect(read.map(\.name) == ["Fish & Chips", "Tea"])
        #expect(read.map(\.unit) == ["kg", nil])
        #expect(read.map(\.shopLocation) == [nil, "Aisle 1"])
    }

    /// Attribute values as XML normalizes them: a line end or a tab is a space (a reference to
    /// one is kept); references to any character.
    @Test func attributeValuesAreNormalizedAsXMLSays() throws {
        let read = try items("<items><item name=\"a\r\nb\tc\nd&#10;e &#xE9;&#233;&quot;&apos;&gt;\"/></items>")
        #expect(read.map(\.name) == ["a b c d\ne éé\"'>"])
    }

    @Test(
        arguments: [
            (
                "<items>\n<item name=\"a\"/>\n<!DOCTYPE items>",
                "line 3: not well-formed XML: a declaration (<!…) inside an element"
            ),
            (
                "<!DOCTYPE items SYSTEM \"file:///etc/passwd\"><items/>",
                "line 1: a document type declaration (<!DOCTYPE …>) is not read: a file of this format has none"
            ),
            (
                "<items>\n<item name=\"&xxe;\"/></items>",
                "line 2: not well-formed XML: the entity &xxe; is not defined (a file of this format defines none)"
            ),
            (
                "<items><item name=\"R&D\"/></items>",
                "line 1: not well-formed XML: a & that starts no reference (write &amp;)"
            ),
            (
                "<items><item name=\"a<b\"/></items>",
                "line 1: not well-formed XML: a < in the value of name (write &lt;)"
            ),
            ("<items><item name=a/></items>", "line 1: not well-formed XML: the value of name is not quoted"),
            (
                "<items><item name=\"a\" name=\"b\"/></items>",
                "line 1: not well-formed XML: <item> has the attribute name twice"
            ),
            (
                "<items><item name=\"a\"unit=\"kg\"/></items>",
                "line 1: not well-formed XML: a bad attribute in <item> (no space before it)"
            ),
            ("<items>\n\n<item name=\"a\">\n</items>", "line 4: not well-formed XML: </items> closes <item>"),
            ("<items>\n<item name=\"a\"/>", "line 2: not well-formed XML: the file ends before </items> (cut off?)"),
            ("<items><item name=\"a", "line 1: not well-formed XML: the file ends inside the value of name"),
            ("<items/><items/>", "line 1: not well-formed XML: content after the last element is closed"),
            ("<items><item name=\"a\u{1}\"/></items>", "line 1: not well-formed XML: a control character (U+0001)"),
            ("<items><!-- a -- b --></items>", "line 1: not well-formed XML: -- inside a comment"),
            (
                "<items/>\n<?xml version=\"1.0\"?>",
                "line 2: not well-formed XML: an XML declaration (<?xml …?>) after the file's start"
            ),
            ("<items><item name=\"&#0;\"/></items>", "line 1: not well-formed XML: &#…; is not a character XML allows"),
            (
                "<items><item name=\"&#xD800;\"/></items>",
                "line 1: not well-formed XML: &#x…; is not a character XML allows"
            ),
            (
                "<items><item name=\"&#x110000000000000000;\"/></items>",
                "line 1: not well-formed XML: &#x…; is not a character XML allows"
            ),
            ("<items><item name=\"&#;\"/></items>", "line 1: not well-formed XML: a bad character reference (&#…;)"),
            ("hello <items/>", "line 1: not well-formed XML: something other than an element before the first element"),
            ("<items>a ]]> b</items>", "line 1: not well-formed XML: ]]> in text"),
            (
                "<items><item name=\"\u{FFFE}\"/></items>",
                "line 1: not well-formed XML: U+FFFE, which is not a character"
            ),
            (
                "<items><item name=\"a\"/><![CDATA[ cut",
                "line 1: not well-formed XML: the file ends inside a CDATA section"
            ),
            (
                "<items><item name=\"a\"/><recipe/></items>",
                "line 1: unexpected element <recipe>: not the book's XML format"
            ),
            ("<items>\n<item unit=\"kg\"/></items>", "line 2: an <item> has no name attribute"),
            ("", "no <items> element: not the book's XML format"),
            ("<!-- nothing -->", "no <items> element: not the book's XML format"),
        ] as [(String, String)])
    func whatXMLDoesNotAllowIsRefusedSayingWhereAndWhat(_ bad: (text: String, reason: String)) {
        #expect(refusal(bad.text) == bad.reason)
    }

    /// A file of a million elements nested, or of a long run of references, costs no stack and
    /// no more than its length: the shape is refused at the second level.
    @Test func deepOrLongFilesCostTheirLengthOnly() throws {
        let deep = String(repeating: "<items>", count: 1_000_000)
        #expect(refusal(deep) == "line 1: unexpected element <items>: not the book's XML format")
        let long = "<items><item name=\"" + String(repeating: "&amp;", count: 200_000) + "\"/></items>"
        #expect(try items(long).first?.name.count == 200_000)
    }

    /// Thousands of damaged copies of a valid file (bytes replaced, cut, repeated, dropped,
    /// taken from XML's syntax): each reads, or is refused in one line; none stops the process.
    @Test func damagedFilesAreReadOrRefusedInOneLine() {
        let valid = Array(
            "<?xml version=\"1.0\"?>\n<!-- c --><items>\n<item name=\"Fish &amp; Chips\" unit='kg'/>\n<item name=\"&#233;t&#xE9;\"><![CDATA[x]]></item>\n</items>\n"
                .utf8)
        let syntax = Array("<>/=\"'&#;x!-?[]CDATA \n\r\tü".utf8)
        var random = SeededRandom(seed: 125)
        var read = 0
        var refused = 0
        for _ in 0..<3_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = syntax.randomElement(using: &random)!
                case 1: bytes.removeSubrange(at...)
                case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
                default: bytes.remove(at: at)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "<")] }
            }
            do {
                _ = try BookXMLReader.read(Data(bytes))
                read += 1
            } catch ArchiveError.malformed(let reason) {
                #expect(!reason.isEmpty && !reason.contains("\n"), "\(reason)")
                refused += 1
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(read > 0 && refused > 0, "\(read) read, \(refused) refused")
    }
}
