import Foundation
import GroceryModel
import TestSupport
import Testing
import TextAndFiles
import ViewModels

@testable import TerminalUI

/// Keys a long-time terminal user expects (issue 16): the messages in full, a word on a key that
/// does nothing, Prepare's order and filter, the picker's type-ahead and pages, delete and add on
/// Shop; and the user guide's key table (docs/user-guide.md), which is the help's.
extension AppScreenTests {
    func text(_ screen: ScreenBuffer) -> String { screen.lines.joined(separator: "\n") }

    @Test func aMessageCutShortSaysSoAndMShowsItWholeWithTheRecentTransitions() throws {
        let controller = try controller()
        let name = "Organic free range extra large brown eggs from the farm"
        controller.handle(.character("a"))
        for character in name { controller.handle(.character(character)) }
        controller.handle(.enter)
        let message = try #require(controller.app.screenMessage?.text)
        #expect(message == "Added \(name)")
        let small = AppScreen.frame(controller, width: 40, height: 10, message: message)
        let cut = small.lines[8].replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        #expect(cut.hasSuffix(AppScreen.fullTextKey), "a cut message ends with where the rest is: \(cut)")
        #expect(
            !AppScreen.frame(controller, width: 80, height: 24, message: "Listed Milk").lines[22].contains(
                AppScreen.fullTextKey))

        controller.handle(.character("6"))
        controller.handle(.character("c"))
        controller.handle(.character("d"))  // Don't Merge: a transition is journaled
        let transition = try #require(controller.app.cloud.status?.transitions.first)
        controller.handle(.character("m"))
        #expect(controller.ui.fullTextVisible)
        let lines = FullTextView.lines(controller, width: 40).map(\.0)
        let joined = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(joined.contains("Added \(name)"), "the message in full:\n\(lines.joined(separator: "\n"))")
        #expect(joined.contains("Using local storage: 1"), "the status line in full")
        #expect(
            joined.contains(
                "\(transition.transition): \(transition.detail)".split(separator: " ").joined(separator: " ")),
            "the transition in full:\n\(lines.joined(separator: "\n"))")
        #expect(
            lines.allSatisfy { TextWidth.columns(of: $0) <= ScrollingBox.width(screen: 40) - 4 }, "wrapped, never cut")
        controller.screenWidth = 40
        controller.screenHeight = 10
        controller.handle(.character("G"))
        #expect(controller.ui.fullTextScroll > 0 && controller.ui.fullTextVisible, "it scrolls at 40×10")
        try expectSnapshot("full-text-end-40x10", AppScreen.frame(controller, width: 40, height: 10))
        controller.handle(.character("x"))
        #expect(!controller.ui.fullTextVisible, "any other key closes it")
        #expect(controller.app.tab == .cloud)
    }

    @Test func aKeyThatDoesNothingSaysSoAndWhereTheKeysAre() throws {
        let controller = try controller()
        controller.handle(.character("x"))
        #expect(controller.app.screenMessage?.text == "x: no action here — ? or F1 for help")
        let before = controller.app.screenMessage?.serial
        controller.handle(.character("j"))
        #expect(controller.app.screenMessage?.serial == before, "a key that acts says nothing")
        controller.handle(.character("6"))
        controller.handle(.control("t"))
        #expect(controller.app.screenMessage?.text == "Ctrl-T: no action here — ? or F1 for help")
        controller.handle(.character("1"))
        controller.handle(.enter)
        controller.handle(.character("z"))
        #expect(controller.app.screenMessage?.text == "z: no action here — ? or F1 for help", "in the editor too")
        controller.handle(.character("q"))
        controller.handle(.character("d"))
        let serial = controller.app.screenMessage?.serial
        controller.handle(.character("w"))  // a dialog: its keys only
        #expect(controller.app.screenMessage?.serial == serial && controller.app.dialog != nil)
        // It fades like any message: the message line gives it up after its seconds.
        var timer = MessageTimer()
        let hint = try #require(controller.app.screenMessage)
        #expect(timer.update(hint, now: hint.made) && timer.visible == hint.text)
        #expect(timer.update(hint, now: hint.made + MessageTimer.seconds) && timer.visible == nil)
    }

    @Test func prepareSortsByNameAndShowsOnlyWhatIsListedForTheSession() throws {
        let controller = try controller()
        let prepare = controller.app.prepare
        #expect(
            AppScreen.hints(controller.app).contains("o sort") && AppScreen.hints(controller.app).contains("f listed"))
        controller.handle(.character("o"))
        #expect(prepare.order == .byName)
        var screen = AppScreen.frame(controller, width: 80, height: 24)
        #expect(screen.lines[1].contains(ItemListIndex.byNameTitle), "the list says so: \(screen.lines[1])")
        #expect(prepare.allNames == ["Bread 🍞", "Crème fraîche", "Flour", "Milk", "牛乳 (Japanese milk)"])
        controller.handle(.character("f"))
        #expect(prepare.allNames == ["Bread 🍞", "Milk"], "only the listed items")
        screen = AppScreen.frame(controller, width: 80, height: 24)
        #expect(screen.lines[1].contains("Only listed items"), "the list says so: \(screen.lines[1])")
        try expectSnapshot("prepare-by-name-only-listed-80x24", screen)
        controller.handle(.character("2"))
        controller.handle(.character("o"))
        #expect(controller.app.shop.order == .byLocation, "Shop keeps its aisles")
        controller.handle(.character("1"))
        #expect(prepare.order == .byName && prepare.onlyListed, "remembered across screens")
        controller.handle(.character(" "))  // unlists Bread
        #expect(prepare.allNames == ["Milk"])
        controller.handle(.character(" "))
        #expect(prepare.allNames.isEmpty)
        #expect(
            text(AppScreen.frame(controller, width: 80, height: 24)).contains("Nothing is listed. f shows every item."))
        controller.handle(.character("f"))
        controller.handle(.character("o"))
        #expect(prepare.namesBySection.count == 4, "by home location again")
    }

    @Test func pickersTypeAheadAndPage() throws {
        let controller = try controller()
        controller.handle(.enter)  // Crème fraîche: tub
        controller.handle(.down)
        controller.handle(.down)
        controller.handle(.enter)
        func selected() -> String? { controller.app.editor?.picker?.selected.label }
        #expect(controller.app.editor?.picker?.options.map(\.label) == ["(clear)", "kg", "L", "tub", "new…"])
        #expect(selected() == "tub")
        controller.handle(.home)
        #expect(selected() == "(clear)")
        controller.handle(.end)
        #expect(selected() == "new…")
        controller.handle(.pageUp)
        #expect(selected() == "(clear)")
        controller.handle(.pageDown)
        #expect(selected() != "(clear)")
        controller.handle(.up)
        controller.handle(.character("l"))
        #expect(selected() == "L", "a letter jumps to the entry it starts, case ignored")
        controller.handle(.up)  // moving ends the typing
        controller.handle(.character("k"))
        controller.handle(.character("g"))
        #expect(selected() == "kg", "every letter jumps: k and g too")
        controller.handle(.up)
        controller.handle(.character("q"))
        #expect(controller.app.editor?.picker != nil, "q is a letter in a picker: it closes nothing")
        controller.handle(.up)
        controller.handle(.character("z"))
        #expect(controller.app.screenMessage?.text == "No unit matches \"z\"")
        #expect(selected() == "(clear)", "nothing matched: the selection stays")
        controller.handle(.escape)
        #expect(controller.app.editor?.picker == nil && controller.app.editor?.values[.unit] == "tub")
    }

    @Test func shopDeletesAndAddsAndItsHintsSaySo() throws {
        let controller = try controller()
        controller.handle(.character("2"))
        let hints = AppScreen.hints(controller.app)
        #expect(hints.contains("a add") && hints.contains("d del"), "\(hints)")
        let first = try #require(controller.app.shop.selectedRow?.name)
        controller.handle(.character("d"))
        #expect(controller.app.dialog?.title == "Delete \(first)?")
        controller.handle(.character("y"))
        #expect(!controller.app.shop.allNames.contains(first))
        controller.handle(.character("a"))
        for character in "Tea" { controller.handle(.character(character)) }
        controller.handle(.enter)
        #expect(controller.app.shop.allNames.contains("Tea"), "added on the list, so on Shop")
    }

    /// The user guide's key table (docs/user-guide.md) is the help's, word for word.
    @Test func theUserGuidesKeyTableIsTheHelp() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/user-guide.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        #expect(
            text.contains(HelpView.markdownTable()),
            "docs/user-guide.md's key table must be:\n\(HelpView.markdownTable())")
        #expect(text.components(separatedBy: "| keys | what they do |").count == 2, "one key table")
    }
}
