import Foundation
import TestSupport
import Testing

/// The real binary in tmux at the sizes a terminal user has (40×10, 60×15, 100×30), and resized
/// with a dialog open; the keys issue 16 asked for, as typed into a real terminal.
@Suite("Every size in a real terminal", .enabled(if: TmuxSession.isAvailable))
struct TerminalSizesTests {
    let directory = TemporaryDirectory("tui-sizes")
    var cli: CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
    }

    /// The app at `width`×`height` on Milk (listed, in litres) and Eggs in the Fridge, Tea in the
    /// Pantry; units L, kg and tub.
    func app(width: Int = 80, height: Int = 24) throws -> TmuxSession {
        #expect(try cli.run(["item", "add", "Milk", "--home-location", "Fridge", "--unit", "L"]).status == 0)
        #expect(try cli.run(["item", "add", "Eggs", "--home-location", "Fridge", "--unlisted"]).status == 0)
        #expect(try cli.run(["item", "add", "Tea", "--home-location", "Pantry", "--unlisted"]).status == 0)
        for unit in ["kg", "tub"] { #expect(try cli.run(["unit", "add", unit]).status == 0) }
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60", width: width,
            height: height)
        try tmux.waitFor { $0.contains("Eggs") }
        return tmux
    }

    func listed() throws -> [String] {
        let items =
            try JSONSerialization.jsonObject(with: Data(try cli.output(["item", "ls", "--listed", "--json"]).utf8))
            as! [[String: Any]]
        return items.map { $0["name"] as! String }.sorted()
    }

    func quit(_ tmux: TmuxSession) throws {
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    /// The lines of a capture.
    func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: [(40, 10), (60, 15), (100, 30)])
    func everyScreenHelpAndEditorAreUsable(size: (Int, Int)) throws {
        let (width, height) = size
        let tmux = try app(width: width, height: height)
        for (key, marker) in [
            ("2", "Milk"), ("3", "kg"), ("4", "Pantry"), ("5", "No shop aisles"), ("6", "Enable clou"), ("1", "Tea"),
        ] {
            try tmux.sendKeys(key)
            let screen = try tmux.waitFor { $0.contains(marker) }
            #expect(screen.contains(marker), "screen \(key) at \(width)×\(height):\n\(screen)")
            #expect(
                lines(screen).last(where: { !$0.isEmpty })?.contains("kitchen") == true,
                "the status line shows:\n\(screen)")
        }
        try tmux.sendKeys("?")
        try tmux.waitFor { $0.contains("Keys") }
        try tmux.sendKeys("G")
        var screen = try tmux.waitFor { $0.contains("done, cancel") || $0.contains("done, canc") }
        #expect(screen.contains("done, canc"), "the help's last line at \(width)×\(height):\n\(screen)")
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Keys") }
        try tmux.sendKeys("g", "Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        for _ in 0..<6 { try tmux.sendKeys("j") }
        screen = try tmux.waitFor { $0.contains("Photo") && ($0.contains("7/7") || $0.contains("Name")) }
        #expect(screen.contains("Photo"), "the last field shows at \(width)×\(height):\n\(screen)")
        for _ in 0..<6 { try tmux.sendKeys("k") }
        screen = try tmux.waitFor { $0.contains("Name") && !$0.contains("7/7") }
        #expect(
            screen.contains("Name      Eggs") || screen.contains("Name            Eggs"),
            "back to the first at \(width)×\(height):\n\(screen)")
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try quit(tmux)
    }

    @Test func theEditorScrollsAt40x10SoTheSelectedFieldShows() throws {
        let tmux = try app(width: 40, height: 10)
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("Edit item") && $0.contains("1/7") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(!screen.contains("Photo"), "the last field is below at 40×10:\n\(screen)")
        for _ in 0..<6 { try tmux.sendKeys("Down") }
        screen = try tmux.waitFor { $0.contains("7/7") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(screen.contains("Photo") && !screen.contains("Name "), "scrolled to the photo:\n\(screen)")
        try tmux.sendKeys("Enter")  // the selected field is the one edited
        try tmux.waitFor { $0.contains("Photo file:") }
        try tmux.sendKeys("Escape")
        try tmux.resize(width: 60, height: 15)
        screen = try tmux.waitFor { $0.contains("Name") && $0.contains("Photo") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(!screen.contains("7/7"), "at 60×15 every field fits:\n\(screen)")
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try quit(tmux)
    }

    @Test func theStartOverWarningIsReadableAt40x10AndScrolls() throws {
        #expect(try cli.run(["cloud", "enable", "--no-merge"]).status == 0)
        let tmux = try app(width: 40, height: 10)
        try tmux.sendKeys("6", "X")
        // Waits for the dialog's last line to be drawn too: a screen caught half-way through its
        // drawing (seen under load) has the box without its scroll mark yet.
        var screen = try tmux.waitFor {
            $0.contains("Start Over?") && $0.contains("Start Over ") && $0.contains("↓ more")
        }
        #expect(screen.contains("for every device."), "readable to \"for every device\":\n\(screen)")
        #expect(!screen.contains("↑ more"), "at the top, more below:\n\(screen)")
        for _ in 0..<4 { try tmux.sendKeys("Down") }
        screen = try tmux.waitFor { $0.contains("go on.") }
        #expect(screen.contains("longer syncs.") && screen.contains("↑ more"), "the rest, scrolled to:\n\(screen)")
        #expect(screen.contains("Start Over?"), "still asking")
        try tmux.sendKeys("Escape")
        screen = try tmux.waitFor { !$0.contains("Start Over?") }
        #expect(screen.contains("Not confirmed"), "\(screen)")
        #expect(try cli.output(["item", "ls"]).contains("Milk"), "nothing was deleted")
        try quit(tmux)
    }

    @Test func aDialogStaysThroughResizesAndNothingActsWhileItCannotBeSeen() throws {
        let tmux = try app()
        #expect(try listed() == ["Milk"])
        try tmux.sendKeys("C")
        try tmux.waitFor { $0.contains("Clear Entire Shopping List?") && $0.contains("[y] Clear") }
        for (width, height) in [(40, 10), (100, 30), (60, 15)] {
            try tmux.resize(width: width, height: height)
            let screen = try tmux.waitFor {
                lines($0).count >= height && $0.contains("[y] Clear") && lines($0)[0].count <= width
            }
            #expect(
                screen.contains("Clear Entire Shopping List?") && screen.contains("[n] Cancel"),
                "whole at \(width)×\(height):\n\(screen)")
            #expect(
                screen.components(separatedBy: "┌").count == 2 && screen.components(separatedBy: "┘").count == 2,
                "one box, redrawn cleanly at \(width)×\(height):\n\(screen)")
        }
        try tmux.resize(width: 39, height: 9)
        try tmux.waitFor { $0.contains("Terminal too small") }
        try tmux.sendKeys("y", "Enter", "Space")
        try tmux.resize(width: 80, height: 24)
        let screen = try tmux.waitFor { $0.contains("Clear Entire Shopping List?") && $0.contains("[y] Clear") }
        #expect(screen.contains("Milk"), "the list behind it is back:\n\(screen)")
        #expect(try listed() == ["Milk"], "nothing was cleared unseen")
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Clear Entire") }
        #expect(try listed() == ["Milk"])
        try quit(tmux)
    }

    @Test func mShowsAMessageTheLineCutInFull() throws {
        let tmux = try app(width: 40, height: 10)
        let name = "Organic free range eggs from the farm down the lane"
        try tmux.sendKeys("a")
        try tmux.type(name)
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("m:all") }
        #expect(screen.contains("Added Organic"), "\(screen)")
        try tmux.sendKeys("m")
        // The whole state at once: a frame read between two writes may hold the box's title and
        // not yet its last line.
        func words(_ screen: String) -> String {
            screen.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        screen = try tmux.waitFor { $0.contains("Messages and transitions") && words($0).contains("Added " + name) }
        #expect(words(screen).contains("Added " + name), "the whole message, wrapped:\n\(screen)")
        try tmux.sendKeys("x")
        screen = try tmux.waitForIdle()
        #expect(!screen.contains("Messages and transitions"), "any key closes the box:\n\(screen)")
        #expect(!screen.contains("no action here"), "the key that closed the box did nothing else:\n\(screen)")
        try quit(tmux)
    }

    @Test func anUnknownKeySaysSoThenFades() throws {
        let tmux = try app()
        try tmux.sendKeys("x")
        var screen = try tmux.waitFor { $0.contains("no action here") }
        #expect(screen.contains("x: no action here — ? or F1 for help"), "\(screen)")
        screen = try tmux.waitFor { !$0.contains("no action here") }
        #expect(screen.contains("Space list"), "the hints are back after a few seconds:\n\(screen)")
        try quit(tmux)
    }

    @Test func prepareSortsByNameAndShowsOnlyTheListedForTheSession() throws {
        let tmux = try app()
        // Each wait is for the whole state expected: tmux may be read between two writes of a frame.
        try tmux.sendKeys("o")
        var screen = try tmux.waitFor { $0.contains("By name") && !$0.contains("Pantry") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        let order = lines(screen).compactMap { line in ["Eggs", "Milk", "Tea"].first { line.contains($0) } }
        #expect(order == ["Eggs", "Milk", "Tea"] && !screen.contains("Pantry"), "one list by name:\n\(screen)")
        try tmux.sendKeys("f")
        screen = try tmux.waitFor { $0.contains("Only listed items") && !$0.contains("Tea") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(screen.contains("Milk") && !screen.contains("Eggs") && !screen.contains("Tea"), "\(screen)")
        try tmux.sendKeys("3", "1")
        // Units lists Milk too (under L): wait for Prepare's own state, not for the name alone.
        screen = try tmux.waitFor { $0.contains("Milk") && $0.contains("Only listed items") && $0.contains("By name") }
        #expect(screen.contains("Only listed items") && screen.contains("By name"), "remembered:\n\(screen)")
        try tmux.sendKeys("f", "o")
        screen = try tmux.waitFor { $0.contains("Pantry") && $0.contains("Eggs") && $0.contains("Fridge") }
        #expect(screen.contains("Eggs") && screen.contains("Fridge"), "\(screen)")
        try quit(tmux)
    }

    @Test func thePickerJumpsToWhatIsTypedAndPages() throws {
        let tmux = try app(width: 60, height: 15)
        try tmux.sendKeys("j", "Enter")  // Milk, in litres
        try tmux.waitFor { $0.contains("Edit item") && $0.contains("L ▸") }
        try tmux.sendKeys("j", "j", "Enter")
        try tmux.waitFor { $0.contains("(clear)") && $0.contains("new…") }
        try tmux.type("tu")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("tub ▸") }
        #expect(screen.contains("Unit*"), "tu picked tub:\n\(screen)")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("(clear)") }
        // Every letter jumps: k and g are letters here, not moves ("kg" finds kg).
        try tmux.type("kg")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { $0.contains("kg ▸") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("(clear)") }
        try tmux.sendKeys("End", "Enter")
        screen = try tmux.waitFor { $0.contains("New unit:") }
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("New unit:") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("(clear)") }
        try tmux.sendKeys("Home", "Enter")
        screen = try tmux.waitFor { $0.contains("(none) ▸") }
        try tmux.sendKeys("s", "q")
        try tmux.waitFor { !$0.contains("Edit item") }
        let milk =
            (try JSONSerialization.jsonObject(with: Data(try cli.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]])
            .first { $0["name"] as? String == "Milk" }
        #expect(milk?["unit"] == nil || milk?["unit"] is NSNull, "Home picked (clear): \(String(describing: milk))")
        try quit(tmux)
    }

    @Test func shopDeletesAndItsHintsListAdd() throws {
        let tmux = try app()
        try tmux.sendKeys("2")
        var screen = try tmux.waitFor { $0.contains("Space collected") }
        #expect(screen.contains("a add") && screen.contains("d del"), "\(screen)")
        try tmux.sendKeys("d")
        try tmux.waitFor { $0.contains("Delete Milk?") }
        try tmux.sendKeys("y")
        screen = try tmux.waitFor { $0.contains("Deleted Milk") }
        #expect(try listed().isEmpty)
        try tmux.sendKeys("a")
        try tmux.type("Jam")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { $0.contains("Added Jam") }
        #expect(try listed() == ["Jam"])
        try quit(tmux)
    }
}
