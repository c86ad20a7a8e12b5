import Foundation
import TestSupport
import Testing

/// The real binary in tmux, as a long-time terminal user tries it: the item editor's keys, input
/// the app refuses, and the message line (issue 16, points 4 to 6).
@Suite("Editing in a real terminal", .enabled(if: TmuxSession.isAvailable))
struct EditingInTheTerminalTests {
    let directory = TemporaryDirectory("tui-editing")
    var cli: CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
    }

    /// The app on Milk and Eggs (in the Fridge: Eggs first, Milk selected with `j`).
    func app(_ names: [String] = ["Eggs", "Milk"]) throws -> TmuxSession {
        for name in names {
            #expect(try cli.run(["item", "add", name, "--home-location", "Fridge", "--unlisted"]).status == 0)
        }
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60")
        try tmux.waitFor { screen in names.allSatisfy { screen.contains($0) } }
        return tmux
    }

    /// Every item, by name.
    func items() throws -> [String: [String: Any]] {
        let list =
            try JSONSerialization.jsonObject(with: Data(try cli.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
    }

    func quit(_ tmux: TmuxSession) throws {
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    // MARK: - The item editor (point 4)

    @Test func escWithUnsavedChangesAsksAndEscAgainGoesBackWithTheEditIntactThenDiscardSavesNothing() throws {
        let tmux = try app()
        try tmux.sendKeys("j", "Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("j", "Enter", "C-u")
        try tmux.type("3")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Quantity*") }

        try tmux.sendKeys("Escape")
        var screen = try tmux.waitFor { $0.contains("Unsaved changes to Milk") && $0.contains("[s] Save") }
        #expect(screen.contains("[d] Discard") && screen.contains("[s] Save"), "Esc asks rather than saves: \(screen)")
        #expect(try items()["Milk"]?["quantity"] as? Double == 1, "nothing saved yet")

        try tmux.sendKeys("Escape")
        screen = try tmux.waitFor { !$0.contains("Unsaved changes") }
        #expect(screen.contains("Edit item (edited)") && screen.contains("Quantity*"), "back in the editor: \(screen)")
        let quantity = screen.split(separator: "\n").first { $0.contains("Quantity*") }
        #expect(quantity?.trimmingCharacters(in: .whitespaces).hasSuffix("3") == true, "the edit is intact: \(screen)")

        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("Unsaved changes to Milk") && $0.contains("[d] Discard") }
        try tmux.sendKeys("d")
        screen = try tmux.waitFor { !$0.contains("Edit item") && $0.contains("discarded") }
        #expect(screen.contains("Changes to Milk discarded"), "\(screen)")
        #expect(try items()["Milk"]?["quantity"] as? Double == 1, "Discard leaves without saving")
        try quit(tmux)
    }

    @Test func anInvalidQuantityIsRefusedWhereItIsTypedAndQThenDiscardLeaves() throws {
        let tmux = try app()
        try tmux.sendKeys("j", "Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("Enter", "C-u")
        try tmux.type("Oat Milk")
        try tmux.sendKeys("Enter", "j", "Enter", "C-u")
        try tmux.type("x")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("is not a number") }
        #expect(screen.contains("Quantity: \"x\" is not a number"), "the field is named: \(screen)")
        #expect(
            screen.split(separator: "\n").contains {
                $0.contains("Quantity") && $0.hasSuffix(" x") || $0.contains("Quantity        x")
            },
            "the field stays open, in place, with what was typed: \(screen)")

        try tmux.sendKeys("Escape")  // gives up on the quantity
        try tmux.waitFor { !$0.contains("is not a number") && $0.contains("Name*") }
        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("Unsaved changes to Milk") && $0.contains("[d] Discard") }
        try tmux.sendKeys("d")
        screen = try tmux.waitFor { !$0.contains("Edit item") && $0.contains("Milk") }
        #expect(!screen.contains("Edit item"), "not trapped: \(screen)")
        #expect(try items().keys.sorted() == ["Eggs", "Milk"])
        try quit(tmux)
    }

    /// The story: a failed `q` moved the editor's selection to Name, so the keys meant
    /// for the quantity renamed the item to "2".
    @Test func aFailedSaveMovesNothingAndTheNextKeysEditTheFieldTheUserWasOn() throws {
        let tmux = try app()
        try tmux.sendKeys("j", "Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("Enter", "C-u")
        try tmux.type("Eggs")  // in use: the save is refused
        try tmux.sendKeys("Enter", "j", "q")
        try tmux.waitFor { $0.contains("Unsaved changes to Milk") && $0.contains("[s] Save") }
        try tmux.sendKeys("s")
        var screen = try tmux.waitFor { $0.contains("exists already") && !$0.contains("Unsaved changes") }
        #expect(screen.contains("Name: an item named \"Eggs\" exists already"), "the field is named: \(screen)")
        #expect(screen.contains("Name!"), "and marked: \(screen)")

        // The selection is still on Quantity: these keys set the quantity, not the name.
        try tmux.sendKeys("Enter", "C-u")
        try tmux.type("2")
        try tmux.sendKeys("Enter", "s")
        screen = try tmux.waitFor { $0.contains("Quantity*") && $0.contains("Not saved") }
        let names = try items().keys.sorted()
        #expect(names == ["Eggs", "Milk"], "the item was not renamed: \(names)\n\(screen)")
        #expect(screen.contains("Name!"), "\(screen)")

        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("Unsaved changes to Milk") && $0.contains("[d] Discard") }
        try tmux.sendKeys("d")
        try tmux.waitFor { !$0.contains("Edit item") }
        #expect(try items()["Milk"]?["quantity"] as? Double == 1)
        try quit(tmux)
    }

    // MARK: - Refused input stays to be fixed (point 5)

    @Test func aNameTooLongStaysInTheAddLineWithTheReasonAndOnceFixedIsAdded() throws {
        let tmux = try app(["Eggs"])
        let long = String(repeating: "Oat-milk ", count: 22) + "barista+"  // 206 characters, then one more
        try tmux.sendKeys("a")
        try tmux.type(long + "!")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("207 characters") }
        #expect(screen.contains("it is 207 characters long; the limit is 200"), "the reason shows: \(screen)")
        #expect(
            screen.contains("Add item:") && screen.contains("barista+!"), "the line stays, with the text: \(screen)")

        for _ in 0..<7 { try tmux.sendKeys("BSpace") }
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { !$0.contains("Add item:") }
        let added = String(long.prefix(200)).trimmingCharacters(in: .whitespaces)
        let names = try items().keys.sorted()
        #expect(names.contains(added), "fixed with Backspace, Enter adds it: \(names)")
        try quit(tmux)
    }

    @Test func aUnitInUseAPhotoThatIsNoneAndABadAccountNameKeepWhatWasTyped() throws {
        #expect(try cli.run(["item", "add", "Flour", "--unit", "kg", "--unlisted"]).status == 0)
        let tmux = try app(["Eggs"])
        try tmux.sendKeys("3", "a")
        try tmux.type("KG")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("exists already") }
        #expect(screen.contains("a unit named \"kg\" exists already") && screen.contains("Add unit: KG"), "\(screen)")
        try tmux.sendKeys("BSpace", "BSpace")
        try tmux.type("tin")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("tin") && !$0.contains("Add unit") }

        try tmux.sendKeys("1", "Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        let notAPhoto = directory.file("list.jpg")
        try Data("eggs, milk\n".utf8).write(to: notAPhoto)
        try tmux.sendKeys("p")
        try tmux.type(notAPhoto.path)
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { $0.contains("is not a photo") }
        #expect(screen.contains("Photo file:") && screen.contains("list.jpg"), "the path stays: \(screen)")
        // Esc, then q once Esc has acted: sent together, a terminal's Esc and q are Alt-q.
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Photo file:") }
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }

        try tmux.sendKeys("6", "i", "C-u")
        try tmux.type("../bad")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor {
            $0.contains("account") && $0.contains("Sign in to account: ../bad") && $0.contains(" ! ")
        }
        #expect(screen.contains("Sign in to account: ../bad"), "\(screen)")
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Sign in to account:") }
        try quit(tmux)
    }

    // MARK: - Messages (point 6)

    @Test func anOldMessageDoesNotComeBackAfterSwitchingScreensTwiceOrClosingTheEditor() throws {
        let tmux = try app(["Eggs"])
        try tmux.sendKeys("a")
        try tmux.type("Tea")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Added Tea") }
        try tmux.sendKeys("3")
        try tmux.waitFor { $0.contains("r rename") }
        try tmux.sendKeys("1")
        // The switch back and a message that came back would land in the same frame.
        var screen = try tmux.waitForIdle()
        #expect(screen.contains("[x] Tea"), "back on Prepare: \(screen)")
        #expect(!screen.contains("Added Tea"), "after two switches: \(screen)")

        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("q")
        screen = try tmux.waitForIdle()
        #expect(!screen.contains("Edit item"), "the editor closed: \(screen)")
        #expect(!screen.contains("Added Tea"), "after closing the editor: \(screen)")
        try quit(tmux)
    }
}
