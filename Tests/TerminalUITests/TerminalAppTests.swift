import Foundation
import GroceryModel
import Logging
import TestSupport
import Testing
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

    @Test func anImportInTheMailboxIsDrawnReadingOnlyItsRow() throws {
        let app = try screens.controller().app
        // Prepare's appearance deduplicates in the background.
        try Poll.until("Prepare's deduplication to end") {
            app.update()
            return !app.prepare.isDeduplicating
        }
        let store = app.coordinator.current.store
        let milk = try #require(app.prepare.row(at: 1))
        #expect(milk.name == "Milk")
        let before = try store.objects.changeToken()
        var changes = ItemChanges()
        changes.quantity = 5
        try store.editItem(milk.id.description, changes)
        let known = StoreChanges(
            updatedItems: [milk.id], tokenBefore: before, tokenAfter: try store.objects.changeToken())
        app.mailbox.post(.imported(count: 1, devices: ["phone"], changes: known))
        let fetches = app.prepare.indexFetches
        let rendered = app.prepare.rowsRead

        let backend = TestBackend(width: 80, height: 24, keys: [.down])
        TerminalApp.run(app: app, logger: .silent, backend: backend)
        let screen = backend.buffer
        #expect(screen.lines.contains { $0.contains("[x] 5 L Milk") }, "\(screen.lines.joined(separator: "\n"))")
        #expect(screen.lines[22].contains("1 change from phone"))
        #expect(app.prepare.indexFetches == fetches, "the list's order was not fetched again")
        #expect(app.prepare.rowsRead == rendered + 3, "Milk and its two neighbours, read to check its place")
    }

    @Test func drawingReadsNothingFromTheStore() throws {
        let controller = try screens.controller()
        _ = AppScreen.frame(controller, width: 80, height: 24)
        let read = controller.app.prepare.rowsRead
        controller.app.prepare.moveSelection(to: 4)
        let moved = controller.app.prepare.rowsRead
        for _ in 0..<3 { _ = AppScreen.render(controller, width: 80, height: 24, message: nil) }
        #expect(controller.app.prepare.rowsRead == moved, "rows are read when the lines move, never while drawing")
        #expect(moved >= read)
    }

    @Test func qEndsTheLoopAndCtrlLRepaints() throws {
        let app = try screens.controller().app
        let backend = TestBackend(width: 40, height: 10, keys: [.control("l"), .character("q"), .character("2")])
        TerminalApp.run(app: app, logger: .silent, backend: backend)
        #expect(backend.invalidations == 1)
        #expect(app.tab == .prepare, "the key after q was never read")
    }

    @Test func theIdleReportSaysHowManyKeysWereHandledAndWhatWasDrawnOnceNoInputIsLeft() throws {
        let app = try screens.controller().app
        let folder = TemporaryDirectory("idle")
        let file = folder.file("idle")
        let backend = TestBackend(width: 40, height: 10, keys: [.down, .resize, .character(" ")])
        var seenBeforeKeys: [String?] = []
        backend.beforeKey = { _ in seenBeforeKeys.append(try? String(contentsOf: file, encoding: .utf8)) }
        TerminalApp.run(app: app, logger: .silent, backend: backend, idleReport: IdleReport(path: file.path))
        #expect(seenBeforeKeys == [nil, nil, nil], "never idle while typed keys wait")
        let report = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(report.first == "keys 2", "a resize is no key: \(report)")
        let drawn = backend.buffer.lines.map {
            $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        #expect(Array(report.dropFirst().prefix(drawn.count)) == drawn.map { Substring($0) }, "the last frame")
        #expect(drawn.contains { $0.contains("Unlisted Milk") }, "after both keys: \(drawn)")
    }
}
