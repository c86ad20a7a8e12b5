import Foundation
import TestSupport
import Testing

/// The real binary in tmux: what a user sees and types.
@Suite("The full-screen list in a real terminal", .enabled(if: TmuxSession.isAvailable))
struct FullScreenTests {
    let directory = TemporaryDirectory("tui")
    var cli: CommandRunner { CommandRunner(dataDirectory: directory.path, device: "kitchen") }

    func appCommand(_ extra: String = "") -> String {
        "\(CommandRunner.binary.path) --data-dir \(directory.path) --device kitchen \(extra); echo EXITED $?; sleep 60"
    }

    func listed() throws -> [String] {
        let result = try cli.run(["item", "ls", "--listed", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        return items.map { $0["name"] as! String }
    }

    @Test func theListOpensTogglesSeesOtherTerminalsAndQuitsCleanly() throws {
        #expect(
            try cli.run(["--no-default-data", "item", "add", "Milk", "--home-location", "Fridge", "--unlisted"]).status
                == 0)
        #expect(try cli.run(["item", "add", "Butter", "--home-location", "Fridge", "--unlisted"]).status == 0)
        let tmux = try TmuxSession(command: appCommand())
        var screen = try tmux.waitFor { $0.contains("Milk") }
        #expect(screen.contains("Grocery Dude"))
        #expect(screen.contains("Fridge"))
        #expect(screen.contains("[ ] Butter"))

        try tmux.sendKeys("j", "Space")
        screen = try tmux.waitFor { $0.contains("[x] Milk") }
        #expect(screen.contains("[x] Milk"))
        #expect(try listed() == ["Milk"])

        // A change made from another terminal shows up without a key press.
        #expect(try cli.run(["item", "add", "Cheese", "--home-location", "Fridge"]).status == 0)
        screen = try tmux.waitFor { $0.contains("Cheese") }
        #expect(screen.contains("[x] Cheese"))

        // A second app on the same device is refused, naming the first.
        let second = try tmux.newWindow(command: appCommand())
        let refusal = try tmux.waitFor(target: second) { $0.contains("EXITED") }
        #expect(refusal.contains("is open in another process (pid"), "\(refusal)")
        #expect(refusal.contains("grocery-dude tui"))

        try tmux.sendKeys("q", target: "\(tmux.name):0")
        screen = try tmux.waitFor(target: "\(tmux.name):0") { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 0"))
        #expect(!screen.contains("Grocery Dude"), "the screen was restored")
    }

    @Test func keysAddToggleEditClearAndUndo() throws {
        let tmux = try TmuxSession(command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 " + appCommand())
        try tmux.waitFor { $0.contains("No items") }
        // A new item goes on the shopping list, as `item add` does.
        try tmux.sendKeys("a")
        try tmux.type("Tea")
        try tmux.sendKeys("Enter")
        var screen = try tmux.waitFor { $0.contains("[x] Tea") }
        #expect(screen.contains("Unknown location"))
        #expect(try listed() == ["Tea"])

        // Edit: the quantity field, typed over in place.
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Edit item") }
        try tmux.sendKeys("j", "Enter")
        // The field is typed where it is shown; the hint line says which one.
        try tmux.waitFor { $0.contains("Quantity: Enter keeps it") }
        try tmux.sendKeys("C-u")
        try tmux.type("3")
        try tmux.sendKeys("Enter", "s", "q")  // s saves; with nothing unsaved, q leaves at once
        screen = try tmux.waitFor { $0.contains("[x] 3 Tea") }
        #expect(screen.contains("[x] 3 Tea"), "\(screen)")

        // Clear asks first; Cancel changes nothing, Clear unlists.
        try tmux.sendKeys("C")
        try tmux.waitFor { $0.contains("Clear Entire Shopping List?") }
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("Clear Entire Shopping List?") }
        #expect(try listed() == ["Tea"])
        try tmux.sendKeys("C", "y")
        try tmux.waitFor { $0.contains("[ ] 3 Tea") }
        #expect(try listed().isEmpty)

        // Undo puts it back on the list.
        try tmux.sendKeys("u")
        // The list and the message may land in two frames: wait for both.
        screen = try tmux.waitFor { $0.contains("[x] 3 Tea") && $0.contains("Undid") }
        #expect(screen.contains("Undid Cleared 1 item from the shopping list"))
        #expect(try listed() == ["Tea"])
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    @Test func aNewItemGetsNoHomeLocationItWasNotGiven() throws {
        #expect(
            try cli.run(["--no-default-data", "item", "add", "Soap", "--home-location", "Bathroom", "--unlisted"])
                .status == 0)
        let tmux = try TmuxSession(command: appCommand())
        try tmux.waitFor { $0.contains("Soap") }
        try tmux.sendKeys("j")  // the cursor on Soap, in Bathroom
        try tmux.sendKeys("a")
        try tmux.type("Oat Milk")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("Oat Milk") }
        let items =
            try JSONSerialization.jsonObject(with: Data(try cli.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let oatMilk = try #require(items.first { $0["name"] as? String == "Oat Milk" })
        #expect(oatMilk["homeLocation"] is NSNull, "\(oatMilk)")
        #expect(oatMilk["listed"] as? Bool == true)
        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("EXITED") }
    }

    @Test func keysDoNothingWhileTheTerminalIsTooSmall() throws {
        #expect(
            try cli.run(["--no-default-data", "item", "add", "Milk", "--home-location", "Fridge", "--unlisted"]).status
                == 0)
        #expect(try cli.run(["item", "add", "Soap", "--home-location", "Bathroom", "--unlisted"]).status == 0)
        let tmux = try TmuxSession(command: appCommand())
        try tmux.waitFor { $0.contains("Milk") }
        try tmux.resize(width: 39, height: 9)
        try tmux.waitFor { $0.contains("Terminal too small") }
        try tmux.sendKeys("j", "Space", "d", "y", "C", "y", "a")
        try tmux.type("Ghost")
        try tmux.sendKeys("Enter", "Space")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor { $0.contains("Milk") && $0.contains("Soap") }
        let screen = try tmux.waitForIdle()
        #expect(!screen.contains("Add item"), "\(screen)")
        #expect(try listed().isEmpty, "nothing was put on the list unseen")
        let names =
            (try JSONSerialization.jsonObject(with: Data(try cli.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]]).map { $0["name"] as! String }
        #expect(names.sorted() == ["Milk", "Soap"])
        // q still quits while the notice is up.
        try tmux.resize(width: 30, height: 8)
        try tmux.waitFor { $0.contains("Terminal too small") }
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    @Test func escAndQCancelTheMergeDialogAndChangeNothing() throws {
        #expect(
            try cli.run(["--no-default-data", "item", "add", "Local Milk", "--home-location", "Fridge"]).status == 0)
        let tmux = try TmuxSession(command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 " + appCommand())
        try tmux.waitFor { $0.contains("Local Milk") }
        for cancel in ["Escape", "q"] {
            try tmux.sendKeys("6", "c")
            try tmux.waitFor { $0.contains("Merge with Cloud?") && $0.contains("[m] Merge") }
            try tmux.sendKeys(cancel)
            // The message of the first round may still show: wait for the dialog to go too.
            let screen = try tmux.waitFor { $0.contains("Cloud sync stays off") && !$0.contains("Merge with Cloud?") }
            #expect(screen.contains("cloud off"), "\(cancel): \(screen)")
        }
        try tmux.sendKeys("1")
        try tmux.waitFor { $0.contains("Local Milk") }
        #expect(try cli.output(["cloud", "status", "--json"]).contains("\"enabled\": false"))
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    @Test func enablingCloudSyncWithLocalDataAsksToMergeAndMergeMovesTheData() throws {
        #expect(
            try cli.run(["--no-default-data", "item", "add", "Local Milk", "--home-location", "Fridge"]).status == 0)
        // Without the shipped groceries, which the account's first device would add to the cloud.
        let tmux = try TmuxSession(command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 " + appCommand())
        try tmux.waitFor { $0.contains("Local Milk") }
        try tmux.sendKeys("6", "c")
        // The dialog and its buttons may land in two frames: wait for both.
        var screen = try tmux.waitFor { $0.contains("Merge with Cloud?") && $0.contains("[m] Merge") }
        #expect(screen.contains("[d] Don't Merge") && screen.contains("[m] Merge"))
        try tmux.sendKeys("m")
        screen = try tmux.waitFor { $0.contains("Merged with the cloud") && $0.contains("Using local storage: 0") }
        #expect(screen.contains("Merged with the cloud"), "\(screen)")
        try tmux.sendKeys("q")
        try tmux.waitFor { $0.contains("EXITED") }
        // The data is in the cloud: a new device finds it there, and the local store is gone.
        let phone = CommandRunner(
            dataDirectory: directory.path, device: "phone", environment: CommandRunner.withoutDefaultData)
        #expect(try phone.run(["cloud", "enable"]).status == 0)
        #expect(try phone.items().map { $0["name"] as! String } == ["Local Milk"])
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/devices/kitchen/local/GroceryDude.sqlite"))
    }

    @Test func ctrlCEndsTheAppCleanly() throws {
        #expect(try cli.run(["item", "ls"]).status == 0)
        let tmux = try TmuxSession(command: appCommand(), width: 40, height: 10)
        // 40 columns leave no room for the title: the tab bar shows the app is up.
        try tmux.waitFor { $0.contains("1 Prepare") }
        try tmux.sendKeys("C-c")
        let screen = try tmux.waitFor { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 0"))
    }

    @Test func aCrashGivesTheTerminalBack() throws {
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_FAULT=app-trap SWIFT_BACKTRACE=enable=no "
                + "\(CommandRunner.binary.path) --data-dir \(directory.path) --device kitchen; echo EXITED $?; stty -a; echo STTY-DONE; sleep 60"
        )
        // Waits for the line after stty's: a capture may catch stty's output half drawn.
        let screen = try tmux.waitFor { $0.contains("EXITED") && $0.contains("STTY-DONE") }
        #expect(!screen.contains("EXITED 0"), "it did crash: \(screen)")
        #expect(
            screen.contains(" echo ") && screen.contains(" icanon "), "echo and line editing are back on: \(screen)")
        #expect(!screen.contains("1 Prepare"), "the screen was restored")
    }

    @Test func anUnknownTerminalTypeIsAClearError() throws {
        let tmux = try TmuxSession(command: "env TERM=no-such-terminal " + appCommand())
        let screen = try tmux.waitFor { $0.contains("EXITED") }
        #expect(screen.contains("Error: cannot drive the terminal type \"no-such-terminal\""), "\(screen)")
        #expect(screen.contains("EXITED 1"))
    }
}

@Suite("Two terminals as two devices", .enabled(if: TmuxSession.isAvailable))
struct TwoDeviceTests {
    let directory = TemporaryDirectory("two-devices")

    func app(_ device: String) -> String {
        "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) --data-dir \(directory.path) --device \(device); echo EXITED $?; sleep 60"
    }

    @Test func anItemAddedOnOneDeviceAppearsOnTheOtherWithinASecond() throws {
        let kitchen = CommandRunner(
            dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
        let phone = CommandRunner(
            dataDirectory: directory.path, device: "phone", environment: CommandRunner.withoutDefaultData)
        for device in [kitchen, phone] {
            #expect(try device.run(["cloud", "enable"]).status == 0)
        }
        #expect(try kitchen.run(["item", "add", "Milk", "--home-location", "Fridge", "--unlisted"]).status == 0)
        let tmux = try TmuxSession(command: app("kitchen"))
        let second = try tmux.newWindow(command: app("phone"))
        try tmux.waitFor(target: second) { $0.contains("Milk") }

        // Toggled in the phone's terminal, seen in the kitchen's.
        try tmux.sendKeys("Space", target: second)
        let kitchenScreen = try tmux.waitFor(target: "\(tmux.name):0") { $0.contains("[x] Milk") }
        #expect(kitchenScreen.contains("[x] Milk"))
        // How fast is the benchmark's business (grocery-dude-bench), not a test's.

        // Added from a command on the kitchen device, seen on the phone's screen.
        #expect(try kitchen.run(["item", "add", "Bread", "--home-location", "Pantry"]).status == 0)
        let phoneScreen = try tmux.waitFor(target: second) { $0.contains("Bread") && $0.contains("from kitchen") }
        #expect(phoneScreen.contains("[x] Bread"))
        #expect(
            phoneScreen.contains("change") && phoneScreen.contains("from kitchen"),
            "the status line says where it came from")
        try tmux.sendKeys("q", target: second)
        try tmux.sendKeys("q", target: "\(tmux.name):0")
    }

    /// Two panes side by side, as a user would run them: keys in one, the other follows.
    @Test func keysInOnePaneReachTheOtherAndStartOverEmptiesIt() throws {
        for device in ["kitchen", "phone"] {
            let runner = CommandRunner(
                dataDirectory: directory.path, device: device, environment: CommandRunner.withoutDefaultData)
            #expect(try runner.run(["cloud", "enable"]).status == 0)
        }
        let tmux = try TmuxSession(command: app("kitchen"), width: 160, height: 24)
        let phone = try tmux.splitPane(command: app("phone"))
        let kitchen = "\(tmux.name):0.0"
        try tmux.waitFor(target: phone) { $0.contains("No items") }
        try tmux.waitFor(target: kitchen) { $0.contains("No items") }

        try tmux.sendKeys("a", target: kitchen)
        try tmux.type("Eggs", target: kitchen)
        let sent = Date()
        try tmux.sendKeys("Enter", target: kitchen)
        let screen = try tmux.waitFor(target: phone) { $0.contains("Eggs") }
        // How soon is the latency benchmark's business: a test on a busy machine only bounds it.
        #expect(
            screen.contains("Eggs"), "added in one pane, seen in the other (after \(Date().timeIntervalSince(sent)) s)")

        // Start over from the kitchen: type the phrase; the phone's list empties.
        try tmux.sendKeys("6", "X", target: kitchen)
        try tmux.waitFor(target: kitchen) { $0.contains("Start Over?") }
        try tmux.type("start over", target: kitchen)
        try tmux.sendKeys("Enter", target: kitchen)
        try tmux.waitFor(target: kitchen) { $0.contains("Started over") }
        try tmux.sendKeys("1", target: phone)
        let emptied = try tmux.waitFor(target: phone) { $0.contains("No items") }
        #expect(emptied.contains("No items") && !emptied.contains("Eggs"), "\(emptied)")
        try tmux.sendKeys("q", target: phone)
        try tmux.sendKeys("q", target: kitchen)
    }
}
