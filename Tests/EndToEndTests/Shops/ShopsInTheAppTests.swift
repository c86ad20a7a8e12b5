import Foundation
import TestSupport
import Testing

/// Shops in the full-screen app, in tmux: Shop shows one shop at a time in its walking order,
/// `s` switches (remembered by the device), Aisles moves an aisle with `J` `K`, and the editor
/// edits the item's aisle in the shop shown.
@Suite("Shops in the full-screen app", .enabled(if: TmuxSession.isAvailable))
struct ShopsInTheAppTests {
    let directory = TemporaryDirectory("shops-app")
    var cli: CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: "kitchen", environment: CommandRunner.withoutDefaultData)
    }

    func app() throws -> TmuxSession {
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60", width: 100, height: 30)
        try tmux.waitFor { $0.contains("Grocery Dude") }
        return tmux
    }

    /// The rows of the screen, from the line holding `first` on: where each of `names` shows.
    func order(of names: [String], in screen: String) -> [Int] {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return names.compactMap { name in lines.firstIndex { $0.contains(name) } }
    }

    @Test func switchShopMoveAnAisleAndTheShopScreensOrder() throws {
        try cli.output(["item", "add", "Milk", "--aisle", "Dairy"])
        try cli.output(["item", "add", "Apples", "--aisle", "Produce"])
        try cli.output(["shops", "new", "Aldi"])
        try cli.output(["item", "edit", "Milk", "--aisle", "Aisle 1", "--in", "Aldi"])
        try cli.output(["item", "edit", "Apples", "--aisle", "Aisle 2", "--in", "Aldi"])
        let tmux = try app()
        try tmux.sendKeys("2")
        // Each wait is for everything it checks: a screen may be caught while it is drawn.
        var screen = try tmux.waitFor {
            $0.contains("Dairy") && $0.contains("Produce") && $0.contains("My shop  (s S: other shops)")
        }
        #expect(screen.contains("My shop  (s S: other shops)"), "\(screen)")
        try tmux.sendKeys("s")
        let aldi = ["Aisle 1", "Milk", "Aisle 2", "Apples", "Aldi  (s S: other shops)"]
        screen = try tmux.waitFor { screen in aldi.allSatisfy { screen.contains($0) } }
        #expect(
            order(of: ["Aisle 1", "Milk", "Aisle 2", "Apples"], in: screen)
                == order(of: ["Aisle 1", "Milk", "Aisle 2", "Apples"], in: screen).sorted(), "\(screen)")
        // Aisles shows Aldi's aisles; K moves Aisle 2 up, before Aisle 1.
        try tmux.sendKeys("5")
        screen = try tmux.waitFor { $0.contains("Aisles of Aldi, in walking order") }
        try tmux.sendKeys("j")
        try tmux.waitForIdle()
        try tmux.sendKeys("K")
        screen = try tmux.waitFor { $0.contains("Moved Aisle 2 up") }
        let aisles =
            try JSONSerialization.jsonObject(
                with: Data(try cli.output(["aisle", "ls", "--in", "Aldi", "--json"]).utf8)) as! [[String: Any]]
        #expect(aisles.map { $0["name"] as! String } == ["Aisle 2", "Aisle 1"])
        try tmux.sendKeys("2")
        screen = try tmux.waitFor { screen in aldi.allSatisfy { screen.contains($0) } }
        let rows = order(of: ["Aisle 2", "Apples", "Aisle 1", "Milk"], in: screen)
        #expect(rows.count == 4 && rows == rows.sorted(), "Aldi's new order on Shop: \(screen)")
        // The editor edits the aisle in the shop shown.
        try tmux.sendKeys("g")
        try tmux.waitForIdle()
        try tmux.sendKeys("Enter")
        screen = try tmux.waitFor { $0.contains("Edit item") && $0.contains("Aldi aisle") }
        #expect(screen.contains("Aldi aisle"), "\(screen)")
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
        // The device remembers the shop shown.
        let again = try app()
        try again.sendKeys("2")
        screen = try again.waitFor { $0.contains("Aldi  (s S: other shops)") }
        #expect(screen.contains("Aldi  (s S: other shops)"), "\(screen)")
        try again.sendKeys("q")
        #expect(try again.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }
}
