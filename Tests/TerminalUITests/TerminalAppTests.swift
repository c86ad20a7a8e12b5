import Foundation
import GroceryModel
import Logging
import Testing
import TestSupport
import ViewModels
@testable import TerminalUI

/// The app's real loop (`TerminalApp.run`) on the in-memory ``TestBackend``: keys in, frames
/// out, characters and styles.
@Suite("The app's loop on a test backend")
struct TerminalAppTests {
    let screens = AppScreenTests()

    /// The line of a frame showing `text`.
    func row(showing text: String, in screen: ScreenBuffer) -> Int? {
        screen.lines.firstIndex { $0.contains(text) }
    }

    @Test func keysMoveTheSelectionAndListAnItemAsTheScreenShows() throws {
        let app = try screens.controller().app
        let backend = TestBackend(width: 80, height: 24, keys: [.down, .character(" ")])
        TerminalApp.run(app: app, logger: .silent, backend: backend)

        let first = try #require(backend.frames.first)
        let milk = try #require(row(showing: "Milk", in: first))
        #expect(first.lines[milk].contains("[x]"), "Milk starts listed: \(first.lines[milk])")
        let screen = backend.buffer
        let flour = try #require(row(showing: "Flour", in: screen))
        let selected = (1..<(screen.height - 2)).filter { screen.cells[$0][2].style.reverse }
        #expect(selected == [row(showing: "Milk", in: screen)].compactMap { $0 }, "↓ selects the second row, Milk")
        #expect(screen.lines[try #require(row(showing: "Milk", in: screen))].contains("[ ]"), "Space unlisted it")
        #expect(!screen.cells[flour][2].style.reverse)
        #expect(screen.lines[22].contains("Unlisted Milk"), "the message line says so: \(screen.lines[22])")
        let id = try #require(app.prepare.selectedID)
        #expect(try app.coordinator.current.store.item(id: id)?.item.listed == false, "and the store has it")
        #expect(screen.styleLegend.contains("T = bold reverse title"), "the tab bar's style: \(screen.styleLegend)")
    }

    @Test func qEndsTheLoopAndCtrlLRepaints() throws {
        let app = try screens.controller().app
        let backend = TestBackend(width: 40, height: 10, keys: [.control("l"), .character("q"), .character("2")])
        TerminalApp.run(app: app, logger: .silent, backend: backend)
        #expect(backend.invalidations == 1)
        #expect(app.tab == .prepare, "the key after q was never read")
    }
}
