import Foundation
import TestSupport
import Testing
import ViewModels

@testable import TerminalUI

/// Every size usable: the item editor and long dialogs scroll so that nothing is out of reach,
/// and a dialog stays, redrawn, through resizes (issue 16).
extension AppScreenTests {
    /// The text of the row drawn selected (reversed) in the editor.
    func selectedEditorLine(_ screen: ScreenBuffer) -> String? {
        (2..<(screen.height - 2)).first { screen.cells[$0][1].style.reverse }.map { screen.lines[$0] }
    }

    @Test func theEditorScrollsSoThatTheSelectedFieldAlwaysShows() throws {
        let controller = try controller()
        controller.handle(.enter)
        let labels = ["Name", "Quantity", "Unit", "Home loc", "Shop ais", "Note", "Photo"]
        for (width, height) in [(40, 10), (60, 15), (100, 30)] {
            controller.handle(.home)  // not a key of the editor: the selection stays
            while controller.ui.editorRow > 0 { controller.handle(.up) }
            for (index, label) in labels.enumerated() {
                let screen = AppScreen.frame(controller, width: width, height: height)
                let line = try #require(
                    selectedEditorLine(screen), "a field is selected at \(width)×\(height), row \(index)")
                #expect(
                    line.hasPrefix(" " + label),
                    "\(label) shows selected at \(width)×\(height):\n\(screen.lines.joined(separator: "\n"))")
                controller.handle(.down)
            }
        }
        try expectSnapshot("editor-last-field-40x10", AppScreen.frame(controller, width: 40, height: 10))
        controller.handle(.up)
        controller.handle(.up)
        controller.handle(.up)
        controller.handle(.up)
        try expectSnapshot("editor-middle-field-40x10", AppScreen.frame(controller, width: 40, height: 10))
    }

    @Test func aLongDialogMessageIsWrappedAndScrollsAndItsKeysAnswerNothing() throws {
        let controller = try controller()
        controller.handle(.character("6"))
        controller.handle(.character("c"))
        controller.handle(.character("d"))  // Don't Merge: cloud on, the account's store
        controller.handle(.character("X"))
        guard case .typedConfirmation(_, let message, _, _)? = controller.app.dialog else {
            Issue.record("Start Over asks to type it")
            return
        }
        controller.screenWidth = 40
        controller.screenHeight = 10
        var screen = AppScreen.frame(controller, width: 40, height: 10)
        var text = screen.lines.joined(separator: "\n")
        #expect(
            text.contains("for every device."), "the warning shows as far as \"for every device\" at 40×10:\n\(text)")
        #expect(text.contains("↓ more"), "and says there is more:\n\(text)")
        try expectSnapshot("dialog-start-over-scroll-top-40x10", screen)
        var seen = ""
        for _ in 0..<10 {
            seen += AppScreen.frame(controller, width: 40, height: 10).lines.joined(separator: " ")
            controller.handle(.down)
        }
        screen = AppScreen.frame(controller, width: 40, height: 10)
        text = screen.lines.joined(separator: "\n")
        #expect(text.contains("↑ more") && !text.contains("↓ more"), "scrolled to its end:\n\(text)")
        try expectSnapshot("dialog-start-over-scroll-end-40x10", screen)
        let words = message.split(separator: " ").map(String.init)
        #expect(words.allSatisfy { seen.contains($0) }, "every word of the warning can be read")
        #expect(
            controller.app.dialog != nil && controller.ui.dialogField.text.isEmpty,
            "scrolling answers nothing, types nothing")
        controller.handle(.pageUp)
        #expect(controller.ui.dialogScroll == 0)
        let large = AppScreen.frame(controller, width: 100, height: 30).lines.joined(separator: "\n")
        #expect(
            large.contains("Type \"start over\" to go on.") && !large.contains("more "),
            "at 100×30 it fits whole:\n\(large)")
        controller.handle(.escape)
        #expect(controller.app.dialog == nil)
        #expect(controller.app.coordinator.current.role == .fallback, "nothing was started over")
    }

    @Test func aDialogStaysThroughResizesAndNoKeyActsWhileItCannotBeSeen() throws {
        let controller = try controller()
        let listed = controller.app.prepare.listedCount
        controller.handle(.character("C"))
        #expect(controller.app.dialog?.title == ClearMessages.prepareQuestion)
        for (width, height) in [(100, 30), (40, 10), (60, 15)] {
            controller.screenWidth = width
            controller.screenHeight = height
            let screen = AppScreen.frame(controller, width: width, height: height)
            let text = screen.lines.joined(separator: "\n")
            #expect(
                text.contains("Clear Entire Shopping List?") && text.contains("[y] Clear")
                    && text.contains("[n] Cancel"),
                "whole at \(width)×\(height):\n\(text)")
            #expect(
                screen.lines.filter { $0.contains("┌") }.count == 1
                    && screen.lines.filter { $0.contains("┘") }.count == 1,
                "one box, drawn once at \(width)×\(height)")
        }
        controller.screenWidth = 39
        controller.screenHeight = 9
        #expect(AppScreen.frame(controller, width: 39, height: 9).lines.joined().contains("Terminal too small"))
        #expect(controller.handle(.character("y")) == .ignored, "the dialog cannot be seen: y does nothing")
        #expect(controller.handle(.enter) == .ignored)
        controller.screenWidth = 80
        controller.screenHeight = 24
        #expect(controller.app.dialog?.title == ClearMessages.prepareQuestion, "the dialog is still there")
        #expect(controller.app.prepare.listedCount == listed, "nothing was cleared")
        controller.handle(.escape)
        #expect(controller.app.dialog == nil && controller.app.prepare.listedCount == listed)
    }
}
