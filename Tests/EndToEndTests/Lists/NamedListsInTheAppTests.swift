import Foundation
import TestSupport
import Testing

/// The list switcher of the real app in tmux, with a list made on another device.
@Suite("Named lists in the full-screen app", .enabled(if: TmuxSession.isAvailable))
struct NamedListsInTheAppTests {
    let directory = TemporaryDirectory("lists-tui")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        CommandRunner(
            dataDirectory: directory.path, device: name,
            environment: CommandRunner.withoutDefaultData.merging(["GROCERY_DUDE_CLOUD": cloud]) { _, new in new })
    }

    @Test func theSwitcherOpensAListFromAnotherDeviceAndMakesANewOne() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["lists", "new", "Camping"])
        try phone.output(["--list", "Camping", "item", "add", "Tent pegs"])

        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) --data-dir \(directory.path) "
                + "--cloud \(cloud) --device kitchen; echo EXITED $?; sleep 60")
        try tmux.waitFor { $0.contains("Milk") }
        try tmux.sendKeys("L")
        // Each wait is for everything it checks: a screen may be caught while it is drawn.
        var screen = try tmux.waitFor { $0.contains("Lists") && $0.contains("Camping") && $0.contains("new list…") }
        #expect(screen.contains("Groceries"))
        #expect(screen.contains("new list…"))

        // Type-ahead, then Enter: the app moves to the list, and every screen shows its items.
        try tmux.sendKeys("c", "Enter")
        try tmux.waitFor { $0.contains("Tent pegs") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(!screen.contains("Milk"))
        #expect(screen.contains("list Camping"), "the status line names the list")

        // A new list: a name in use is refused and stays to be fixed; a good one opens empty.
        try tmux.sendKeys("L", "End", "Enter")
        try tmux.waitFor { $0.contains("New list:") }
        try tmux.type("groceries")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("exists already") }
        try tmux.sendKeys("C-u")
        try tmux.type("Beach")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("list Beach") }
        screen = try tmux.waitForIdle()  // the whole frame, for what must not be on it
        #expect(!screen.contains("Tent pegs"))

        // Esc closes the switcher without moving.
        try tmux.sendKeys("L")
        try tmux.waitFor { $0.contains("new list…") }
        try tmux.sendKeys("Escape")
        screen = try tmux.waitFor { !$0.contains("new list…") }
        #expect(screen.contains("list Beach"))

        let lists = try phone.output(["lists", "ls"])
        #expect(lists.contains("Beach") && lists.contains("made by kitchen"), "\(lists)")
        try tmux.sendKeys("q")
        screen = try tmux.waitFor { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 0"))
    }

    /// Two lists made apart under one name: the switcher shows them apart and offers to merge
    /// them (`+`, asked first); a list on screen merged away on another device is followed to
    /// the list its items went to.
    @Test func theSwitcherMergesTwoListsOfOneNameAndTheAppFollowsAMergeMadeElsewhere() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen")
        let phone = device("phone")
        for peer in [kitchen, phone] { try peer.output(["cloud", "enable"]) }
        for peer in [kitchen, phone] { try peer.output(["cloud", "offline"]) }
        try kitchen.output(["lists", "new", "Dinner"])
        try kitchen.output(["--list", "Dinner", "item", "add", "Pasta"])
        try phone.output(["lists", "new", "dinner"])
        try phone.output(["--list", "dinner", "item", "add", "Rice"])
        try phone.output(["lists", "new", "Trip"])
        try phone.output(["--list", "Trip", "item", "add", "Tent"])
        for peer in [kitchen, phone, kitchen] { try peer.output(["cloud", "online"]) }
        let rows =
            try JSONSerialization.jsonObject(with: Data(try kitchen.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let ofKitchen = try #require(rows.first { $0["name"] as? String == "Dinner" }?["store"] as? String)

        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) --data-dir \(directory.path) "
                + "--cloud \(cloud) --device kitchen --list \(ofKitchen); echo EXITED $?; sleep 60", width: 120)
        try tmux.waitFor { $0.contains("Pasta") }
        try tmux.sendKeys("L")
        let switcher = try tmux.waitFor {
            $0.contains("Lists") && $0.contains("by phone") && $0.contains("by kitchen")
                && $0.contains("+ merge the two")
        }
        #expect(switcher.contains("by kitchen"), "both shown apart: \(switcher)")
        #expect(switcher.contains("+ merge the two"), "the hint offers the merge: \(switcher)")
        try tmux.sendKeys("+")
        let question = try tmux.waitFor { $0.contains("Merge Lists?") && $0.contains("goes into") }
        #expect(question.contains("goes into"), "\(question)")
        try tmux.sendKeys("y")
        var screen = try tmux.waitFor {
            $0.contains("Merged dinner into Dinner") && $0.contains("Rice") && $0.contains("Pasta")
                && $0.contains("list Dinner")
        }
        #expect(screen.contains("Pasta"), "\(screen)")
        #expect(screen.contains("list Dinner"), "the list on screen stays: \(screen)")
        #expect(try phone.listNames() == ["Dinner", "Groceries", "Trip"], "one Dinner on the other device too")
        #expect(try phone.itemNames(["--list", "Dinner"]) == ["Pasta", "Rice"])

        // phone merges the list on kitchen's screen into Trip: kitchen follows it there.
        try phone.output(["lists", "merge", "Dinner", "--into", "Trip", "--yes"])
        // The app may show Trip before its import of the merged copy lands: wait for both.
        screen = try tmux.waitFor(timeout: 30) { $0.contains("list Trip") && $0.contains("Tent") }
        screen = try tmux.waitFor(timeout: 30) { $0.contains("Pasta") && $0.contains("Rice") }
        #expect(screen.contains("list Trip"), "\(screen)")
        try tmux.sendKeys("q")
        screen = try tmux.waitFor { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 0"))
    }
}
