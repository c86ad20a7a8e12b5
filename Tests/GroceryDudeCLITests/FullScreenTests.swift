import Foundation
import Testing
import TestSupport

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
        #expect(try cli.run(["--no-default-data", "item", "add", "Milk", "--home-location", "Fridge", "--unlisted"]).status == 0)
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

    @Test func ctrlCEndsTheAppCleanly() throws {
        #expect(try cli.run(["item", "ls"]).status == 0)
        let tmux = try TmuxSession(command: appCommand(), width: 40, height: 10)
        try tmux.waitFor { $0.contains("Grocery Dude") }
        try tmux.sendKeys("C-c")
        let screen = try tmux.waitFor { $0.contains("EXITED") }
        #expect(screen.contains("EXITED 0"))
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
        let kitchen = CommandRunner(dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
        let phone = CommandRunner(dataDirectory: directory.path, device: "phone", environment: CommandRunner.withoutDefaultData)
        for device in [kitchen, phone] {
            #expect(try device.run(["cloud", "enable"]).status == 0)
        }
        #expect(try kitchen.run(["item", "add", "Milk", "--home-location", "Fridge", "--unlisted"]).status == 0)
        let tmux = try TmuxSession(command: app("kitchen"))
        let second = try tmux.newWindow(command: app("phone"))
        try tmux.waitFor(target: second) { $0.contains("Milk") }

        // Toggled in the phone's terminal, seen in the kitchen's.
        try tmux.sendKeys("Space", target: second)
        let kitchenScreen = try tmux.waitFor(timeout: 5, target: "\(tmux.name):0") { $0.contains("[x] Milk") }
        #expect(kitchenScreen.contains("[x] Milk"))
        // How fast is the benchmark's business (grocery-dude-bench), not a test's.

        // Added from a command on the kitchen device, seen on the phone's screen.
        #expect(try kitchen.run(["item", "add", "Bread", "--home-location", "Pantry"]).status == 0)
        let phoneScreen = try tmux.waitFor(timeout: 5, target: second) { $0.contains("Bread") && $0.contains("from kitchen") }
        #expect(phoneScreen.contains("[x] Bread"))
        #expect(phoneScreen.contains("change") && phoneScreen.contains("from kitchen"), "the status line says where it came from")
        try tmux.sendKeys("q", target: second)
        try tmux.sendKeys("q", target: "\(tmux.name):0")
    }
}
