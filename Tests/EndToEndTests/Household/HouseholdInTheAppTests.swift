import Foundation
import TestSupport
import Testing

/// Claims and presence in the full-screen app, in tmux: Shop shows who claimed an item, the
/// status line who is shopping on another device, and Shop open makes this device shopping
/// until it is left or the app quits.
@Suite("Claims and presence in the full-screen app", .enabled(if: TmuxSession.isAvailable))
struct HouseholdInTheAppTests {
    let directory = TemporaryDirectory("household-app")
    var cloud: String { directory.file("Cloud").path }

    func device(_ name: String) -> CommandRunner { CommandRunner.device(name, in: directory.path, cloud: cloud) }

    /// The people `who --json` lists on `device`, as "person/device/shop".
    func shopping(_ device: CommandRunner) throws -> [String] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try device.output(["who", "--json"]).utf8))
            as! [[String: Any]]
        return rows.map { "\($0["person"] as! String)/\($0["device"] as! String)/\($0["shop"] as? String ?? "-")" }
    }

    @Test func shopShowsClaimsTheStatusLineWhoIsShoppingAndShopOpenIsShopping() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen")
        let phone = device("phone")
        for (device, person) in [(kitchen, "Anna"), (phone, "Ben")] {
            try device.output(["cloud", "enable", "--no-merge"])
            try device.output(["person", "set", person])
        }
        try kitchen.output(["shops", "new", "Aldi"])
        try kitchen.output(["item", "add", "Milk"])
        try kitchen.output(["item", "add", "Tea"])
        try kitchen.output(["item", "claim", "Tea"])
        try phone.output(["cloud", "sync"])

        let tmux = try TmuxSession(
            command: "env GROCERY_DUDE_NO_DEFAULT_DATA=1 GROCERY_DUDE_CLOUD=\(cloud) \(CommandRunner.binary.path) "
                + "--data-dir \(directory.path) --device phone; echo EXITED $?; sleep 60", width: 120, height: 30)
        try tmux.waitFor { $0.contains("Grocery Dude") }
        try tmux.sendKeys("2")
        try tmux.waitFor { $0.contains("My shop  (s S: other shops)") }
        try tmux.sendKeys("s")
        // Each wait is for everything it checks: a screen may be caught while it is drawn.
        var screen = try tmux.waitFor {
            $0.contains("Aldi  (s S: other shops)") && $0.contains("Tea  (Anna)") && $0.contains("Milk")
        }
        #expect(!screen.contains("Milk  (Anna)"), "\(screen)")

        // Shop open: the phone is shopping, at the shop it shows.
        try Poll.until(every: 0.2, "the kitchen sees Ben shopping at Aldi") {
            try shopping(kitchen) == ["Ben/phone/Aldi"]
        }
        // A claim made on the kitchen, and the kitchen's person shopping, reach the phone's screen.
        try kitchen.output(["item", "claim", "Milk"])
        try kitchen.output(["shopping", "start", "--in", "Aldi"])
        screen = try tmux.waitFor { $0.contains("Milk  (Anna)") && $0.contains("Anna is shopping at Aldi") }
        // Collected on the phone: the claim ends.
        try kitchen.output(["shopping", "stop"])
        try kitchen.output(["item", "collect", "Milk"])
        screen = try tmux.waitFor {
            $0.contains("Milk") && !$0.contains("Milk  (Anna)") && !$0.contains("Anna is shopping")
        }

        // Leaving Shop: the phone stops shopping; back on Shop and quitting: stopped again.
        try tmux.sendKeys("1")
        try Poll.until(every: 0.2, "the phone stopped shopping when Shop was left") { try shopping(kitchen) == [] }
        try tmux.sendKeys("2")
        try Poll.until(every: 0.2, "the phone shops again") { try shopping(kitchen) == ["Ben/phone/Aldi"] }
        try tmux.sendKeys("q")
        #expect(try tmux.waitFor { $0.contains("EXITED") }.contains("EXITED 0"))
        #expect(try shopping(kitchen) == [], "quitting wrote that the phone stopped")
    }
}
