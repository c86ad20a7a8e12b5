import Foundation
import TestSupport
import Testing

/// Whose change it was, in the full-screen app: the item editor says who added the item and who
/// changed it last, and `h` shows the whole history, with the other device's person.
@Suite("An item's history in the full-screen app", .enabled(if: TmuxSession.isAvailable))
struct ItemHistoryInTheAppTests {
    let directory = TemporaryDirectory("history-app")
    var cloud: String { directory.file("Cloud").path }

    @Test func theEditorNamesWhoAddedAndWhoTickedAndHShowsEveryChange() throws {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        try kitchen.output(["item", "add", "Milk", "--home-location", "Fridge"])
        try phone.output(["item", "edit", "Milk", "--qty", "3"])
        try phone.output(["item", "list", "Milk"])
        try phone.output(["item", "collect", "Milk"])
        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 GROCERY_DUDE_CLOUD=\(cloud) \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device kitchen; echo EXITED $?; sleep 60", width: 100, height: 30)
        try tmux.waitFor { $0.contains("Milk") && $0.contains("Fridge") }
        try tmux.sendKeys("Enter")
        // Each wait is for everything it checks: a screen may be caught while it is drawn.
        let editor = try tmux.waitFor {
            $0.contains("Edit item") && $0.contains("added by Anna (kitchen), ")
                && $0.contains("ticked by Ben (phone), ")
        }
        #expect(editor.contains("Quantity"), "\(editor)")
        try tmux.sendKeys("h")
        let history = try tmux.waitFor {
            $0.contains("History of Milk") && $0.contains("Ben (phone): quantity 1 → 3")
                && $0.contains("Anna (kitchen): added \"Milk\"") && $0.contains("Ben (phone): collected")
        }
        // Newest first.
        let lines = history.split(separator: "\n")
        let collected = lines.firstIndex { $0.contains("Ben (phone): collected") }
        let added = lines.firstIndex { $0.contains("Anna (kitchen): added") }
        #expect(collected != nil && added != nil && collected! < added!, "\(history)")
        try tmux.sendKeys("Escape")
        try tmux.waitFor { !$0.contains("History of Milk") && $0.contains("Edit item") }
        try tmux.sendKeys("q")
        try tmux.waitFor { !$0.contains("Edit item") }
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
    }
}
