import Foundation
import TestSupport
import Testing

/// Typed and pasted text stays text, and no key acts unseen: the real app in tmux at 40×10,
/// 100×30 and 200×60.
@Suite("Typing is text, in a real terminal", .enabled(if: TmuxSession.isAvailable))
struct TypingIsTextTests {
    let directory = TemporaryDirectory("typing-is-text")
    var cli: CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
    }

    static let sizes = [(40, 10), (100, 30), (200, 60)]

    func app(width: Int, height: Int) throws -> TmuxSession {
        #expect(try cli.run(["item", "add", "Milk", "--home-location", "Fridge", "--unit", "L"]).status == 0)
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60", width: width,
            height: height)
        try tmux.waitFor { $0.contains("Milk") }
        return tmux
    }

    func names() throws -> [String] { try cli.itemNames() }

    func quit(_ tmux: TmuxSession) throws {
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    @Test(arguments: sizes)
    func aPasteOfThreeLinesIntoAddAsksOnceAndAddsAnItemALine(size: (Int, Int)) throws {
        let tmux = try app(width: size.0, height: size.1)
        try tmux.sendKeys("a")
        try tmux.paste("Paste One\nPaste Two\nPaste Three")
        var screen = try tmux.waitFor { $0.contains("Add 3 Items?") }
        #expect(screen.contains("Add 3 Items?"), "\(screen)")
        #expect(try names() == ["Milk"], "nothing added before the answer")
        try tmux.sendKeys("y")  // [y] Add
        screen = try tmux.waitFor { $0.contains("Added 3") }
        #expect(try names() == ["Milk", "Paste One", "Paste Three", "Paste Two"], "\(screen)")
        // A paste with no field open is text too: ignored, said, nothing run.
        try tmux.paste("ad")
        screen = try tmux.waitForIdle()
        #expect(screen.contains("Paste ignored"), "\(screen)")
        #expect(!screen.contains("New item") && !screen.contains("Delete"), "\(screen)")
        // One line into a field is text in it.
        try tmux.sendKeys("a")
        try tmux.paste("Oat milk")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Oat milk") }
        #expect(try names().contains("Oat milk"))
        try quit(tmux)
    }

    @Test(arguments: sizes)
    func altKeysInAFieldEditItAndNeverReachTheScreen(size: (Int, Int)) throws {
        let tmux = try app(width: size.0, height: size.1)
        try tmux.sendKeys("a")
        try tmux.type("more text")
        try tmux.sendKeys("M-b", "M-d")  // a word back, then delete it: "more "
        try tmux.sendKeys("M-x")  // does nothing, and closes nothing
        try tmux.type("bread")
        try tmux.sendKeys("Enter")
        let screen = try tmux.waitForIdle()
        #expect(screen.contains("more bread"), "\(screen)")
        #expect(!screen.contains("Delete"), "Alt-d opened nothing: \(screen)")
        #expect(try names() == ["Milk", "more bread"])
        try quit(tmux)
    }

    @Test func aMistypedConfirmationStaysOpenAndWhatIsTypedNextStaysInIt() throws {
        #expect(try cli.run(["cloud", "enable", "--no-merge"]).status == 0)
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("6", "X")
        try tmux.waitFor { $0.contains("Start Over?") }
        try tmux.type("start")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("Not confirmed: type") }
        #expect(screen.contains("Start Over?"), "the dialog stays: \(screen)")
        // What is typed next goes into the field, never to the Cloud screen (O would sign out).
        try tmux.type(" Over")
        screen = try tmux.waitFor { $0.contains("start Over") }
        #expect(screen.contains("Start Over?"))
        try tmux.sendKeys("Escape")
        screen = try tmux.waitFor { !$0.contains("Start Over?") }
        let status = try cli.output(["cloud", "status"])
        #expect(status.contains("Account:") && status.contains("default"), "still signed in: \(status)")
        #expect(try names() == ["Milk"], "nothing deleted")
        try quit(tmux)
    }

    @Test func signingOutAsksAndEscKeepsTheDeviceSignedIn() throws {
        #expect(try cli.run(["cloud", "enable", "--no-merge"]).status == 0)
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("6", "O")
        var screen = try tmux.waitFor { $0.contains("Sign Out?") }
        try tmux.sendKeys("Escape")
        screen = try tmux.waitFor { !$0.contains("Sign Out?") }
        #expect(try cli.output(["cloud", "status"]).contains("default"), "still signed in")
        try tmux.sendKeys("O")
        try tmux.waitFor { $0.contains("Sign Out?") }
        try tmux.sendKeys("y")
        screen = try tmux.waitFor { $0.contains("signed out") && $0.contains("i signs in") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(!screen.contains("c turns it off"), "the Cloud screen says what to do, signed out: \(screen)")
        try tmux.sendKeys("c")
        screen = try tmux.waitFor { $0.contains("sign in to an account first") }
        try quit(tmux)
    }

    @Test func undoRightAfterAnAddRemovesTheAddAndRedoBringsItBack() throws {
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("a")
        try tmux.type("Bread")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Bread") }
        try tmux.sendKeys("u")
        var screen = try tmux.waitFor { $0.contains("Undid Added Bread") }
        #expect(!screen.contains("[x] Bread"), "\(screen)")
        #expect(try names() == ["Milk"])
        try tmux.sendKeys("U")
        screen = try tmux.waitFor { $0.contains("Redid") }
        #expect(try names() == ["Bread", "Milk"])
        // Changed on another device since: undo asks before deleting it.
        #expect(try cli.run(["item", "edit", "Bread", "--quantity", "3"]).status == 0)
        try tmux.sendKeys("u")
        screen = try tmux.waitFor { $0.contains("Undo the Add?") }
        #expect(screen.contains("another device"), "\(screen)")
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Undo the Add?") }
        #expect(try names() == ["Bread", "Milk"], "kept")
        try quit(tmux)
    }

    @Test func functionKeysAndSilentKeysSaySomething() throws {
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("F1")
        var screen = try tmux.waitFor { $0.contains("Keys") && $0.contains("this help") }
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("this help") }
        try tmux.sendKeys("IC")  // Insert
        screen = try tmux.waitFor { $0.contains("Insert: no action here") }
        try tmux.sendKeys("F2")
        screen = try tmux.waitFor { $0.contains("F2: no action here") }
        #expect(screen.contains("F1 for help"))
        try tmux.sendKeys("F10")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"), "F10 quits")
    }

    @Test func aislesAndHomeLocationsSortAsPeopleCount() throws {
        for (name, aisle) in [("Rice", "Aisle 10"), ("Soap", "Aisle 2"), ("Tea", "Aisle 1")] {
            #expect(try cli.run(["item", "add", name, "--shop-location", aisle]).status == 0)
        }
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("2")
        func titles(_ screen: String) -> [Int] {
            ["Aisle 1", "Aisle 2", "Aisle 10"].compactMap { aisle in
                // The section's title, not "Aisle 10" for "Aisle 1".
                screen.split(separator: "\n").firstIndex { $0.hasPrefix(" \(aisle) ") }
            }
        }
        // All three titles drawn: a screen caught half-way through its drawing shows some.
        let screen = try tmux.waitFor { titles($0).count == 3 }
        let order = titles(screen)
        #expect(order == order.sorted(), "Aisle 1, Aisle 2, Aisle 10:\n\(screen)")
        try quit(tmux)
    }

    @Test func aRemoteChangeWhileEditingIsShownAndSavingAsks() throws {
        let phone = CommandRunner(
            dataDirectory: directory.path, device: "phone", environment: CommandRunner.withoutDefaultData)
        #expect(try cli.run(["cloud", "enable", "--no-merge"]).status == 0)
        let tmux = try app(width: 100, height: 30)
        #expect(try phone.run(["cloud", "enable", "--no-merge"]).status == 0)
        try tmux.waitFor { $0.contains("Using local storage: 0") }
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("Down", "Enter")  // Quantity
        try tmux.waitFor { $0.contains("Quantity:") }
        try tmux.sendKeys("C-u")
        try tmux.type("10")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Quantity*") }
        #expect(try phone.run(["item", "edit", "Milk", "--quantity", "2"]).status == 0)
        var screen = try tmux.waitFor { $0.contains("phone set 2 at") }
        #expect(screen.contains("10"), "yours still shows: \(screen)")
        try tmux.sendKeys("s")
        screen = try tmux.waitFor { $0.contains("Changed on Another Device") }
        #expect(screen.contains("yours is 10"), "\(screen)")
        try tmux.sendKeys("y")  // [y] Yours
        try tmux.waitFor { $0.contains("Saved Milk") }
        let milk = try cli.items().first { $0["name"] as? String == "Milk" }
        #expect(milk?["quantity"] as? Int == 10)
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try quit(tmux)
    }

    @Test func aStoreKeptAsideByAStartOverIsShownAndMergedBackFromTheCloudScreen() throws {
        let phone = CommandRunner(
            dataDirectory: directory.path, device: "phone", environment: CommandRunner.withoutDefaultData)
        #expect(try cli.run(["cloud", "enable", "--no-merge"]).status == 0)
        #expect(try cli.run(["item", "add", "Tea"]).status == 0)
        #expect(try phone.run(["cloud", "enable", "--no-merge"]).status == 0)
        #expect(try cli.run(["cloud", "offline"]).status == 0)
        #expect(try cli.run(["item", "add", "Offline soup"]).status == 0)  // never exported before the start over
        #expect(try phone.run(["cloud", "start-over", "--yes"]).status == 0)
        #expect(try cli.run(["cloud", "online"]).status == 0)
        #expect(!(try names().contains("Offline soup")), "kept aside, not shown")
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("6")
        var screen = try tmux.waitFor { $0.contains("Kept aside on this device") }
        #expect(screen.contains("epoch-1") && screen.contains("items"), "\(screen)")
        try tmux.sendKeys("M")
        screen = try tmux.waitFor { $0.contains("Merge Kept Store?") }
        try tmux.sendKeys("y")
        screen = try tmux.waitFor { $0.contains("Merged epoch-1") }
        #expect(try names().contains("Offline soup"), "merged back")
        #expect(
            !screen.contains("Kept aside on this device") || !screen.contains("epoch-1-"), "the file is gone: \(screen)"
        )
        try quit(tmux)
    }

    @Test func theMouseScrollsSelectsSwitchesTabsAndEditsAndNoMouseLeavesItToTheTerminal() throws {
        for index in 1...20 {
            #expect(
                try cli.run(["item", "add", String(format: "Item %02d", index), "--home-location", "Shelf"]).status == 0
            )
        }
        let tmux = try app(width: 100, height: 12)
        #expect(try tmux.display("#{mouse_any_flag}") == "1", "the app asks for the mouse")
        #expect(try tmux.capture().contains("Item 01"))
        // The wheel: three rows a notch, as the arrows move.
        for _ in 0..<4 { try tmux.type("\u{1b}[<65;10;5M") }
        var screen = try tmux.waitFor { !$0.contains("Item 01") }
        #expect(!screen.contains("Item 01"), "scrolled down: \(screen)")
        // A click on a tab switches to it.
        try tmux.type("\u{1b}[<0;28;1M")  // " 2 Shop ", after " Grocery Dude " and " 1 Prepare "
        screen = try tmux.waitFor { $0.contains("Space collected") }
        #expect(screen.contains("Space collected"), "on Shop: \(screen)")
        try tmux.type("\u{1b}[<0;16;1M")  // " 1 Prepare "
        screen = try tmux.waitFor { $0.contains("Space list") }
        #expect(screen.contains("Space list"), "back on Prepare: \(screen)")
        // A double click on a row edits its item.
        try tmux.type("\u{1b}[<0;8;4M\u{1b}[<0;8;4M")
        screen = try tmux.waitFor { $0.contains("Edit item") }
        #expect(screen.contains("Edit item"), "\(screen)")
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try quit(tmux)

        let plain = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen --no-mouse; echo EXITED $?; sleep 60", width: 100,
            height: 12)
        try plain.waitFor { $0.contains("Item 01") }
        #expect(try plain.display("#{mouse_any_flag}") == "0", "--no-mouse leaves the mouse to the terminal")
        try quit(plain)
    }

    @Test(arguments: sizes)
    func aFieldIsTypedWhereItIsShownWithTheTerminalsCursor(size: (Int, Int)) throws {
        let tmux = try app(width: size.0, height: size.1)
        #expect(try tmux.display("#{cursor_flag}") == "0", "no cursor while nothing is typed")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("Enter")  // Name
        try tmux.type(" fresh")
        let screen = try tmux.waitFor { $0.contains("Milk fresh") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("Milk fresh") })
        #expect(lines[row].contains("Name"), "in the Name row, not on the bottom line: \(screen)")
        #expect(try tmux.display("#{cursor_flag}") == "1")
        #expect(try tmux.display("#{cursor_y}") == String(row), "the terminal's cursor is in the field")
        let column = try #require(Int(try tmux.display("#{cursor_x}")))
        #expect(
            lines[row].prefix(column).hasSuffix("Milk fresh"), "right after what was typed: \(lines[row]) at \(column)")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Name*") }
        #expect(try tmux.display("#{cursor_flag}") == "0")
        try tmux.sendKeys("s")
        try tmux.waitFor { $0.contains("Saved") }
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        // A unit renamed in its row on the Units screen.
        try tmux.sendKeys("3", "r")
        try tmux.type("itre")
        let units = try tmux.waitFor { $0.contains("Litre") }
        let unitLines = units.split(separator: "\n", omittingEmptySubsequences: false)
        let unitRow = try #require(unitLines.firstIndex { $0.contains("Litre") })
        #expect(unitRow < unitLines.count - 3, "in the list, not on the bottom line: \(units)")
        #expect(try tmux.display("#{cursor_y}") == String(unitRow))
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Litre") && !$0.contains("Enter keeps it") }
        try quit(tmux)
    }

    @Test func discardAfterAttachingAPhotoKeepsTheItemWithoutIt() throws {
        let photo = directory.file("milk.jpg")
        try (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0, count: 2044)).write(to: photo)
        let tmux = try app(width: 100, height: 30)
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("p")
        try tmux.type(photo.path)
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("(unsaved)") }
        try tmux.sendKeys("q")
        screen = try tmux.waitFor { $0.contains("Unsaved changes to Milk") }
        #expect(screen.contains("Photo"), "the photo is among the changes: \(screen)")
        try tmux.sendKeys("d")
        try tmux.waitFor { !$0.contains("Edit item") }
        let milk = try cli.items().first { $0["name"] as? String == "Milk" }
        #expect(milk?["photoBytes"] as? Int == 0, "Discard kept the item without the photo")
        try quit(tmux)
    }
}
