import Foundation
import GroceryModel
import TestSupport
import Testing
import TextAndFiles
import Ubiquity

@testable import StoreLifecycle
@testable import TerminalUI
@testable import ViewModels

/// Snapshots of every screen and dialog at 80×24 and 40×10: the frame `AppScreen.frame` makes
/// from the view models' state alone — the one the app's loop hands its terminal backend
/// (`TerminalAppTests` drive that loop on the in-memory ``TestBackend``) — compared with the
/// text files in `Snapshots/`, text and styles (`RECORD_SNAPSHOTS=1` rewrites
/// them; review the diff before committing). A test that reaches a state the tour
/// (``everyScreenAt80x24And40x10()``) records compares with the tour's file (`all-…`), so that no
/// two files hold one screen; `prepare-40x10` has its own (another row is selected).
@Suite("Snapshots of the full-screen app")
struct AppScreenTests {
    let directory = TemporaryDirectory("app-screen")
    /// The app's clock: a time a screen shows (a transition's, a message's) is the same at every run.
    let clock = TestClock()

    static let groceries: [(String, Double, String?, String?, String?, Bool)] = [
        ("Milk", 2, "L", "Fridge", "Dairy", true),
        ("牛乳 (Japanese milk)", 1, nil, "冷蔵庫", "Dairy", false),
        ("Bread 🍞", 1, nil, nil, "Bakery", true),
        ("Flour", 1.5, "kg", "Pantry", nil, false),
        ("Crème fraîche", 1, "tub", "Fridge", "Dairy", false),
    ]

    func controller() throws -> AppController {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(
            coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }, clock: clock))
        for (name, quantity, unit, home, shop, listed) in Self.groceries {
            var draft = ItemDraft(name: name)
            draft.quantity = quantity
            draft.unit = unit
            draft.homeLocation = home
            draft.shopLocation = shop
            draft.listed = listed
            try app.coordinator.current.store.addItem(draft)
        }
        app.show(.prepare)
        return AppController(app: app)
    }

    /// Compares the screen with `Snapshots/<name>.txt`: its text, after masking what differs per
    /// run (peer IDs), then its styles, a letter per cell, and the letters' legend.
    func expectSnapshot(_ name: String, _ screen: ScreenBuffer, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(
            screen.lines.allSatisfy { TextWidth.columns(of: $0) == screen.width }, "every line fills the width",
            sourceLocation: sourceLocation)
        var text =
            screen.lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(
                separator: "\n") + "\n"
        // Peer IDs are random; times are the test clock's (``clock``), the same at every run.
        text = text.replacingOccurrences(
            of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f-]*", with: "#", options: .regularExpression)
        // The editor's authors line dates the saves by the store's own clock, the real one.
        text = text.replacingOccurrences(
            of: "(added|changed|ticked|unticked|listed|unlisted|edited) by ([^,\n]+), [0-9A-Za-z :]+",
            with: "$1 by $2, #time", options: .regularExpression)
        text += Self.stylesHeading + "\n" + screen.styleLines.joined(separator: "\n") + "\n"
        text += screen.styleLegend.map { $0 + "\n" }.joined()
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "snapshot \(name) differs:\n\(text)", sourceLocation: sourceLocation)
    }

    /// Between a snapshot's text and its styles.
    static let stylesHeading = "-- styles --"

    func selectedLines(_ screen: ScreenBuffer) -> [Int] {
        (1..<(screen.height - 2)).filter { screen.cells[$0][2].style.reverse }
    }

    /// A terminal shorter than the Cloud screen scrolls it to its last rows, and says there is more.
    @Test func theCloudScreenScrollsToItsLastRows() throws {
        let controller = try controller()
        controller.handle(.character("6"))
        (controller.screenWidth, controller.screenHeight) = (40, 10)
        var text = AppScreen.frame(controller, width: 40, height: 10).lines.joined(separator: "\n")
        #expect(!text.contains("Recent transitions") && text.contains("↓ more"), "\(text)")
        controller.handle(.end)
        text = AppScreen.frame(controller, width: 40, height: 10).lines.joined(separator: "\n")
        #expect(text.contains("Recent transitions") && text.contains("↑ more"), "\(text)")
        controller.handle(.home)
        #expect(controller.ui.cloudScroll == 0)
    }

    /// Offline because the folder at the cloud folder's path is not the synced one: the status
    /// line says why in a few words (the Cloud tab has the whole reason).
    @Test func theStatusLineSaysWhenTheCloudFolderIsNotTheSyncedOne() {
        var summary = DeviceSummary(device: "kitchen")
        (summary.account, summary.cloudOn, summary.usingLocalStorage, summary.offline) = ("default", true, false, true)
        #expect(AppScreen.statusText(summary).contains(" · offline · "))
        // Narrow: the least useful parts go first; offline, refused files and the last sync stay.
        var narrow = summary
        narrow.refusedFiles = 2
        let short = AppScreen.statusText(narrow, width: 40)
        #expect(
            TextWidth.columns(of: short) <= 40 && short.contains("offline") && short.contains("refused"), "\(short)")
        #expect(!short.contains("Using local storage"), "\(short)")
        summary.otherCloudFolder = true
        #expect(AppScreen.statusText(summary).contains("offline: not the synced cloud folder (share not mounted?)"))
    }

    @Test func prepareWithWideCharactersAt80x24And40x10() throws {
        let controller = try controller()
        let large = AppScreen.frame(controller, width: 80, height: 24)
        try expectSnapshot("all-prepare-80x24", large)
        #expect(selectedLines(large) == [2], "the first row is selected")
        controller.handle(.down)
        controller.handle(.down)
        let small = AppScreen.frame(controller, width: 40, height: 10)
        try expectSnapshot("prepare-40x10", small)
        #expect(selectedLines(small).count == 1)
    }

    /// Every screen, the editor and the help at both sizes.
    @Test func everyScreenAt80x24And40x10() throws {
        let controller = try controller()
        let screens: [(String, [Key])] = [
            ("prepare", [.character("1")]), ("shop", [.character("2")]), ("units", [.character("3")]),
            ("home", [.character("4")]), ("aisles", [.character("5")]), ("cloud", [.character("6")]),
            ("editor", [.character("1"), .enter]), ("help", [.escape, .character("?")]),
        ]
        for (name, keys) in screens {
            for key in keys { controller.handle(key) }
            try expectSnapshot("all-\(name)-80x24", AppScreen.frame(controller, width: 80, height: 24))
            try expectSnapshot("all-\(name)-40x10", AppScreen.frame(controller, width: 40, height: 10))
        }
    }

    /// The help scrolls at any size, with the current screen's keys first; any other key closes it.
    @Test func helpScrollsToItsLastLineAndShowsTheCurrentScreensKeysFirst() throws {
        let controller = try controller()
        controller.handle(.character("6"))
        controller.handle(.character("?"))
        for (width, height) in [(40, 10), (100, 30)] {
            controller.screenHeight = height
            controller.screenWidth = width
            var text = AppScreen.frame(controller, width: width, height: height).lines.joined(separator: "\n")
            #expect(
                text.contains("Cloud") && text.contains("cloud sync"), "the Cloud screen's keys come first:\n\(text)")
            controller.handle(.character("G"))
            text = AppScreen.frame(controller, width: width, height: height).lines.joined(separator: "\n")
            #expect(text.contains("done, canc"), "the last line shows at \(width)×\(height):\n\(text)")
            controller.handle(.character("g"))
            #expect(controller.ui.helpVisible)
        }
        var seen = Set<String>()
        controller.screenHeight = 10
        controller.screenWidth = 40
        for _ in 0..<150 {
            for line in AppScreen.frame(controller, width: 40, height: 10).lines { seen.insert(line) }
            controller.handle(.down)
        }
        for key in ["switch screen", "attach, remo", "add, rename", "cut to end"] {
            #expect(seen.contains { $0.contains(key) }, "\(key) can be scrolled to")
        }
        controller.handle(.character("q"))
        #expect(!controller.ui.helpVisible)
        #expect(controller.app.tab == .cloud, "closing the help does nothing else")
    }

    /// Every kind of dialog, and the store-change notice, at both sizes.
    @Test func everyDialogAt80x24And40x10() throws {
        let controller = try controller()
        func both(_ name: String) throws {
            try expectSnapshot("dialog-\(name)-80x24", AppScreen.frame(controller, width: 80, height: 24))
            try expectSnapshot("dialog-\(name)-40x10", AppScreen.frame(controller, width: 40, height: 10))
        }
        controller.handle(.character("d"))
        try both("delete")
        controller.handle(.escape)
        controller.handle(.character("2"))
        controller.handle(.character("C"))
        try both("nothing-collected")
        controller.handle(.enter)
        controller.handle(.character("6"))
        controller.handle(.character("c"))
        try both("merge")
        controller.handle(.character("d"))
        controller.handle(.character("X"))
        try both("start-over")
        controller.handle(.escape)
        for size in [(80, 24), (40, 10)] {
            var screen = ScreenBuffer(width: size.0, height: size.1)
            DialogView.draw(
                .progress(title: "Starting over", done: 50, total: 200), focus: 0, field: TextField(), into: &screen)
            try expectSnapshot("dialog-progress-start-over-\(size.0)x\(size.1)", screen)
            screen = ScreenBuffer(width: size.0, height: size.1)
            AppScreen.drawNotice("Switching account…", into: &screen)
            try expectSnapshot("notice-\(size.0)x\(size.1)", screen)
        }
    }

    @Test func shopSearchAndAResize() throws {
        let controller = try controller()
        controller.handle(.character("2"))
        try expectSnapshot("all-shop-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.character("1"))
        for key in [Key.character("/"), .character("c"), .character("r"), .character("e"), .character("m")] {
            controller.handle(key)
        }
        #expect(controller.app.prepare.rowCount == 1, "creme finds Crème fraîche")
        try expectSnapshot("prepare-search-40x10", AppScreen.frame(controller, width: 40, height: 10))
        // The terminal grows: the list re-lays out, the selection stays visible.
        controller.handle(.enter)
        controller.handle(.escape)
        controller.app.prepare.moveSelection(to: 4)
        let small = AppScreen.frame(controller, width: 40, height: 10)
        #expect(selectedLines(small).count == 1)
        let large = AppScreen.frame(controller, width: 100, height: 30)
        #expect(selectedLines(large).count == 1)
        #expect(large.lines[1].contains("Fridge"), "everything fits again, from the top")
        try expectSnapshot("too-small", AppScreen.frame(controller, width: 30, height: 8))
    }

    @Test func editorAndPicker() throws {
        let controller = try controller()
        controller.handle(.enter)
        #expect(controller.app.editor != nil)
        try expectSnapshot("all-editor-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.down)
        controller.handle(.down)
        controller.handle(.enter)
        #expect(controller.app.editor?.picker != nil)
        try expectSnapshot("editor-picker-40x10", AppScreen.frame(controller, width: 40, height: 10))
    }

    @Test func catalogsAndCloud() throws {
        let controller = try controller()
        controller.handle(.character("3"))
        try expectSnapshot("all-units-40x10", AppScreen.frame(controller, width: 40, height: 10))
        controller.handle(.character("6"))
        try expectSnapshot("all-cloud-80x24", AppScreen.frame(controller, width: 80, height: 24))
    }

    @Test func aDeviceWhoseClockIsFarAheadIsShownOnTheCloudScreen() throws {
        func enabled(_ device: String) throws -> AppModel {
            let config = try StoreConfiguration.temporary(in: directory, device: device)
            try config.changeSettings { $0.cloudEnabled = true }
            let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
            #expect(try CloudSetup.run(config, account: "default"))
            try coordinator.finishSetup()
            return AppModel(coordinator: coordinator)
        }
        let kitchen = try enabled("kitchen")
        let phone = try enabled("phone")
        try phone.coordinator.current.store.addItem(ItemDraft(name: "Tea"))
        // The phone's log says it was written ten years from now: its clock is that far ahead.
        let sync = try #require(phone.coordinator.current.sync)
        let url = sync.layout.logURL(peer: sync.peer, seq: 1)
        let log = try LogFile.read(at: url, expecting: sync.layout, peer: sync.peer, seq: 1).record
        let ahead = TransactionRecord(
            transactionID: log.transactionID, timestamp: log.timestamp.addingTimeInterval(3650 * 86_400),
            author: log.author, inserted: log.inserted, updated: log.updated, deleted: log.deleted, clock: log.clock)
        try LogFile.encode(ahead, layout: sync.layout, peer: sync.peer, device: "phone", seq: 1).write(to: url)

        kitchen.coordinator.current.importPending()
        kitchen.show(.cloud)
        kitchen.cloud.refresh(force: true)
        let screen = AppScreen.frame(AppController(app: kitchen), width: 120, height: 30)
        let line = try #require(
            screen.lines.first { $0.contains("Clock ahead") }, "\(screen.lines.joined(separator: "\n"))")
        #expect(line.contains("device \"phone\"'s clock was about 10 years ahead of this one's (log 1)"), "\(line)")
        #expect(screen.cells[screen.lines.firstIndex(of: line)!].contains { $0.style.color == .warning })
    }

    @Test func dialogsAndHelp() throws {
        let controller = try controller()
        controller.handle(.character("C"))
        try expectSnapshot("dialog-clear-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.escape)
        controller.handle(.character("?"))
        try expectSnapshot("all-help-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.character("x"))
        #expect(!controller.ui.helpVisible, "any key closes the help")
        controller.handle(.character("a"))
        for character in "Tea" { controller.handle(.character(character)) }
        try expectSnapshot("prompt-add-40x10", AppScreen.frame(controller, width: 40, height: 10))
    }

    @Test func theMergePromptStartOverAndProgress() throws {
        let controller = try controller()
        controller.handle(.character("6"))
        controller.handle(.character("c"))
        try expectSnapshot("dialog-merge-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.character("d"))  // Don't Merge
        #expect(controller.app.coordinator.current.role == .fallback)
        controller.handle(.character("X"))
        try expectSnapshot("dialog-start-over-40x10", AppScreen.frame(controller, width: 40, height: 10))
        for character in "start" { controller.handle(.character(character)) }
        try expectSnapshot("dialog-start-over-typing-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.escape)
        #expect(controller.app.cloud.message == "Not confirmed; nothing was deleted")

        var screen = ScreenBuffer(width: 40, height: 10)
        DialogView.draw(
            .progress(title: "Merging with the Cloud", done: 30, total: 120), focus: 0, field: TextField(),
            into: &screen)
        try expectSnapshot("dialog-progress-40x10", screen)
        screen = ScreenBuffer(width: 40, height: 10)
        AppScreen.drawNotice("Updating from the cloud…", into: &screen)
        try expectSnapshot("notice-changing-40x10", screen)
    }

    /// A line refused stays open with what was typed and says why above it; fixed, it goes in.
    @Test func aRefusedLineKeepsItsTextAndSaysWhy() throws {
        let controller = try controller()
        func type(_ text: String) { for character in text { controller.handle(.character(character)) } }
        controller.handle(.character("a"))
        type(String(repeating: "Milk-", count: 41) + "xx")  // 207 characters
        controller.handle(.enter)
        let prompt = try #require(controller.ui.prompt)
        #expect(prompt.field.text.count == 207, "the text stays")
        #expect(prompt.error == "invalid item name: it is 207 characters long; the limit is 200")
        try expectSnapshot("prompt-refused-40x10", AppScreen.frame(controller, width: 40, height: 10))
        for _ in 0..<7 { controller.handle(.backspace) }
        controller.handle(.enter)
        #expect(controller.ui.prompt == nil)
        #expect(controller.app.prepare.selectedRow?.name.count == 200, "fixed, it is added")

        // A unit that exists; a photo that is not there; an account name that cannot be one.
        controller.handle(.character("3"))
        controller.handle(.character("a"))
        type("KG")
        controller.handle(.enter)
        #expect(controller.ui.prompt?.field.text == "KG")
        #expect(controller.ui.prompt?.error == "a unit named \"kg\" exists already")
        controller.handle(.escape)
        #expect(controller.ui.prompt == nil, "Esc still cancels")
        controller.handle(.character("1"))
        controller.handle(.enter)
        controller.handle(.character("p"))
        type("/no/such/photo.jpg")
        controller.handle(.enter)
        #expect(controller.ui.prompt?.error == "No such file: /no/such/photo.jpg")
        controller.handle(.escape)
        controller.handle(.down)
        controller.handle(.enter)
        controller.handle(.control("u"))
        type("two")
        controller.handle(.enter)
        #expect(controller.ui.prompt?.error == "Quantity: \"two\" is not a number")
        try expectSnapshot("prompt-refused-quantity-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.escape)
        controller.handle(.character("q"))
        #expect(controller.app.editor == nil, "nothing was changed: q leaves at once")
        controller.handle(.character("6"))
        controller.handle(.character("i"))
        controller.handle(.control("u"))
        type("../evil")
        controller.handle(.enter)
        #expect(controller.ui.prompt?.field.text == "../evil")
        #expect(controller.ui.prompt?.error?.isEmpty == false)
    }

    /// The editor's question before leaving, and a save refused for one field.
    @Test func theEditorAsksBeforeLeavingAndMarksTheFieldASaveWasRefusedFor() throws {
        let controller = try controller()
        func type(_ text: String) { for character in text { controller.handle(.character(character)) } }
        controller.handle(.enter)  // Crème fraîche, the first row
        controller.handle(.enter)
        controller.handle(.control("u"))
        type("milk")
        controller.handle(.enter)
        controller.handle(.down)
        controller.handle(.escape)
        try expectSnapshot("dialog-unsaved-changes-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.character("s"))  // Save: "Milk" is taken
        #expect(controller.app.editor?.fieldError?.field == .name)
        #expect(controller.ui.editorRow == 1, "the selected field stays where it was")
        try expectSnapshot("editor-field-error-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.character("?"))
        try expectSnapshot("help-editor-80x24", AppScreen.frame(controller, width: 80, height: 24))
        controller.handle(.escape)
        #expect(controller.app.editor != nil && !controller.ui.helpVisible, "Esc closes the help, not the editor")
        controller.handle(.character("q"))
        controller.handle(.character("d"))
        #expect(controller.app.editor == nil, "Discard leaves")
    }
}
