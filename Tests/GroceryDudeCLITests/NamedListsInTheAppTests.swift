import Foundation
import Testing
import TestSupport

/// The list switcher of the real app in tmux, with a list made on another device.
@Suite("Named lists in the full-screen app", .enabled(if: TmuxSession.isAvailable))
struct NamedListsInTheAppTests {
    let directory = TemporaryDirectory("lists-tui")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name,
                      environment: CommandRunner.withoutDefaultData.merging(["GROCERY_DUDE_CLOUD": cloud]) { _, new in new })
    }

    @Test func theSwitcherOpensAListFromAnotherDeviceAndMakesANewOne() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen"), phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["lists", "new", "Camping"])
        try phone.output(["--list", "Camping", "item", "add", "Tent pegs"])

        let tmux = try TmuxSession(command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) --data-dir \(directory.path) "
            + "--cloud \(cloud) --device kitchen; echo EXITED $?; sleep 60")
        try tmux.waitFor { $0.contains("Milk") }
        try tmux.sendKeys("L")
        var screen = try tmux.waitFor { $0.contains("Lists") && $0.contains("Camping") }
        #expect(screen.contains("Groceries"))
        #expect(screen.contains("new list…"))

        // Type-ahead, then Enter: the app moves to the list, and every screen shows its items.
        try tmux.sendKeys("c", "Enter")
        screen = try tmux.waitFor { $0.contains("Tent pegs") }
        #expect(!screen.contains("Milk"))
        #expect(screen.contains("list Camping"), "the status line names the list")

        // A new list: a name in use is refused and stays to be fixed; a good one opens empty.
        try tmux.sendKeys("L", "G", "Enter")
        try tmux.waitFor { $0.contains("New list:") }
        try tmux.type("groceries")
        try tmux.sendKeys("Enter")
        try tmux.waitFor { $0.contains("exists already") }
        try tmux.sendKeys("C-u")
        try tmux.type("Beach")
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { $0.contains("list Beach") }
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
}
