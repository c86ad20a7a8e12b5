import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import TextAndFiles
import ViewModels

@testable import TerminalUI

/// Text on screen is measured, cut and padded by grapheme clusters and terminal columns: a
/// family emoji, a flag or an "e" with its accent is never cut in half, and what follows it stays
/// in its column. Strings are built from explicit scalars.
@Suite("Grapheme clusters on screen")
struct GraphemeClusterTests {
    let directory = TemporaryDirectory("clusters")

    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    static let flag = "\u{1F1EB}\u{1F1F7}"

    func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func clustersAreMeasuredCutAndPaddedWhole() {
        #expect(TextWidth.columns(of: Self.family) == 2)
        #expect(TextWidth.columns(of: Self.flag) == 2)
        #expect(TextWidth.columns(of: "Cafe\u{301}") == 4)
        #expect(TextWidth.columns(of: "\u{65E5}\u{672C}") == 4)
        // Printable ASCII takes the fast path, a column a byte; anything else the slow one.
        let ascii = String(decoding: (0x20..<0x7F).map { UInt8($0) }, as: UTF8.self)
        #expect(TextWidth.columns(of: ascii) == ascii.reduce(0) { $0 + TextWidth.columns(of: $1) })
        #expect(TextWidth.columns(of: "a\tb\r\nc") == "a\tb\r\nc".reduce(0) { $0 + TextWidth.columns(of: $1) })
        #expect(
            scalars(TextWidth.truncate(Self.family + Self.family + "x", to: 4)) == scalars(Self.family + "\u{2026}"))
        #expect(scalars(TextWidth.truncate("Cafe\u{301}s", to: 4, ellipsis: false)) == scalars("Cafe\u{301}"))
        #expect(scalars(TextWidth.pad(Self.flag, to: 5)) == scalars(Self.flag + "   "))
        #expect(TextWidth.pad("too wide", to: 3) == "too wide", "padding never cuts")
    }

    @Test func aPickerRowKeepsAFamilyWholeAndItsBorderInPlace() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        // 34 UTF-16 units in 10 columns: padding by UTF-16 length cut the last family in half.
        let label = "ab" + String(repeating: Self.family, count: 4)
        var draft = ItemDraft(name: "Milk")
        draft.unit = label
        try app.coordinator.current.store.addItem(draft)
        app.show(.prepare)
        let controller = AppController(app: app)
        controller.handle(.enter)
        controller.handle(.down)
        controller.handle(.down)
        controller.handle(.enter)
        #expect(controller.app.editor?.picker != nil)
        let screen = AppScreen.frame(controller, width: 80, height: 24)
        // The box is 36 columns wide from column 22; its rows start with a space, then the label.
        let row = try #require(
            (0..<24).first { screen.cells[$0][24].character == "a" && screen.cells[$0][25].character == "b" })
        #expect(screen.lines[row].unicodeScalars.map(\.value).contains(scalars(label)), "\(screen.lines[row])")
        // "(clear)", the unit, "new…": the right border is at column 57 on each.
        for y in (row - 1)...(row + 1) {
            #expect(screen.cells[y][57].character == "\u{2502}", "row \(y): \(screen.lines[y])")
        }
        #expect(screen.lines.allSatisfy { TextWidth.columns(of: $0) == 80 })
    }

    @Test func aCombiningAccentTypedAfterItsLetterIsOneCharacter() {
        var field = TextField("Caf")
        field.apply(.character("e"))
        field.apply(.character("\u{301}"))
        #expect(field.characters.count == 4)
        #expect(field.cursor == 4)
        #expect(scalars(field.text) == scalars("Cafe\u{301}"))
        field.apply(.character(Character("\u{1F1EB}")))
        field.apply(.character(Character("\u{1F1F7}")))
        #expect(field.characters.count == 5, "the two halves of a flag are one character")
        field.apply(.backspace)
        field.apply(.backspace)
        #expect(field.text == "Caf")
    }

    /// Alt keys edit as readline does, any other Alt key does nothing, and a paste is text.
    @Test func altKeysMoveAndDeleteWordsAndAPasteIsText() {
        var field = TextField("more text here")
        field.apply(.alt("b"))
        #expect(field.cursor == 10, "a word back: before 'here'")
        field.apply(.alt("b"))
        field.apply(.alt("d"))
        #expect(field.text == "more  here", "Alt-D deletes the word after the cursor")
        field.apply(.end)
        field.apply(Key.altBackspace)
        #expect(field.text == "more  ")
        #expect(field.apply(.alt("x")) && field.text == "more  ", "taken, and nothing done")
        field.apply(.alt("f"))
        field.apply(.paste("Paste One\r\nPaste\tTwo\u{7}"))
        #expect(field.text == "more  Paste One Paste Two", "line ends and tabs as spaces, control characters gone")
        field.apply(.home)
        field.apply(.alt("f"))
        #expect(field.cursor == 4)
    }
}
