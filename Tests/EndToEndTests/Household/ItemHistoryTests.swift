import Foundation
import TestSupport
import Testing

/// An item's history on each device: its own saves and what it imported, with whose change
/// each was, in the order the changes were made, across a baseline; removed and merged items
/// found by name.
@Suite("An item's history")
struct ItemHistoryTests {
    let directory = TemporaryDirectory("history")
    var cloud: String { directory.file("Cloud").path }

    func history(_ runner: CommandRunner, _ name: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try runner.output(["item", "history", name, "--json"]).utf8))
            as! [[String: Any]]
    }

    func summary(_ entries: [[String: Any]]) -> [String] {
        entries.map { entry in
            [entry["person"], entry["change"], entry["field"], entry["from"], entry["to"]]
                .map { ($0 as? String) ?? "-" }.joined(separator: " ")
        }
    }

    @Test func bothPersonsChangesInOrderAcrossABaselineAndRemovedAndMergedItemsFoundByName() throws {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        try kitchen.output(["item", "add", "Milk", "--qty", "2"])
        try phone.output(["item", "edit", "milk", "--qty", "3"])
        try kitchen.output(["cloud", "baseline"])
        try phone.output(["item", "collect", "Milk"])
        try kitchen.output(["item", "edit", "Milk", "--note", "oat"])
        let expected = [
            "Anna added name - Milk", "Ben changed quantity 2 3", "Ben collected collected - -",
            "Anna changed note (none) oat",
        ]
        #expect(summary(try history(kitchen, "Milk")) == expected)
        #expect(summary(try history(phone, "MILK")) == expected, "the same on the other device")
        // A rebuild keeps the device's history (the folder's baseline covers the first changes).
        try kitchen.output(["cloud", "rebuild"])
        #expect(summary(try history(kitchen, "Milk")) == expected, "after a rebuild")
        let first = try history(kitchen, "Milk").first
        #expect(first?["device"] as? String == "kitchen")
        let text = try kitchen.output(["item", "history", "Milk"])
        #expect(text.contains("Ben (phone): quantity 2 → 3"), "\(text)")

        // Removed: found by its name, with who removed it.
        try phone.output(["item", "rm", "Milk"])
        let removed = try kitchen.output(["item", "history", "milk"])
        #expect(
            removed.contains("Milk (not in the list now)") && removed.contains("Ben (phone): removed"), "\(removed)")

        // Two copies of one name made apart, then merged: the copy's past is the survivor's.
        try kitchen.output(["cloud", "offline"])
        try phone.output(["cloud", "offline"])
        try kitchen.output(["item", "add", "Tea"])
        try phone.output(["item", "add", "tea", "--qty", "5"])
        try kitchen.output(["cloud", "online"])
        try phone.output(["cloud", "online"])
        try kitchen.output(["cloud", "sync"])
        try kitchen.output(["dedupe"])
        try phone.output(["cloud", "sync"])
        let tea = summary(try history(phone, "Tea"))
        #expect(tea.contains("Anna added name - Tea") && tea.contains("Ben added name - tea"), "\(tea)")
        #expect(tea.contains { $0.hasPrefix("Anna merged") } || tea.contains { $0.hasPrefix("Ben merged") }, "\(tea)")

        // Unknown: a clear message.
        let unknown = try kitchen.run(["item", "history", "Nothing Like It"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no item matches"), "\(unknown.stderr)")
    }

    /// `item ls --at`: the list as each change was made, on the device that did not make them.
    @Test func theListAsItWasBeforeAndAfterAnEdit() throws {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func list(at moment: Date?) throws -> [String: Double] {
            let arguments = ["item", "ls", "--json"] + (moment.map { ["--at", format.string(from: $0)] } ?? [])
            let items =
                try JSONSerialization.jsonObject(with: Data(try kitchen.output(arguments).utf8)) as! [[String: Any]]
            return Dictionary(uniqueKeysWithValues: items.map { ($0["name"] as! String, $0["quantity"] as! Double) })
        }
        let start = Date()
        try kitchen.output(["item", "add", "Milk", "--qty", "2"])
        let beforeEdit = Date()
        try phone.output(["item", "edit", "milk", "--qty", "3"])
        try phone.output(["item", "add", "Bread"])
        let afterEdit = Date()
        try phone.output(["item", "rm", "Bread"])
        try phone.output(["item", "edit", "Milk", "--name", "Oat milk"])
        try kitchen.output(["cloud", "sync"])

        #expect(try list(at: nil) == ["Oat milk": 3])
        #expect(try list(at: beforeEdit) == ["Milk": 2], "before the phone's edit")
        #expect(try list(at: afterEdit) == ["Milk": 3, "Bread": 1], "after it, with the item removed since")
        #expect(try list(at: start).isEmpty, "before anything was added")

        // Before the history begins: the list as it is now, and a note that says so.
        let early = try kitchen.run(["item", "ls", "--at", "2020-01-01 12:00"])
        #expect(early.status == 0 && early.stderr.contains("history begins at"), "\(early.stderr)")
        let text = try kitchen.output(["item", "ls", "--at", format.string(from: afterEdit)])
        #expect(text.contains("Bread") && text.contains("Milk") && !text.contains("Oat"), "\(text)")
        for bad in ["yesterday", "2026-13-01 10:00", "2026-02-31 10:00"] {
            let refused = try kitchen.run(["item", "ls", "--at", bad])
            #expect(refused.status != 0 && refused.stderr.contains("invalid time"), "\(bad): \(refused.stderr)")
        }
        let withShop = try kitchen.run(["item", "ls", "--at", "2026-01-01 10:00", "--in", "My shop"])
        #expect(withShop.status != 0 && withShop.stderr.contains("--in"), "\(withShop.stderr)")
    }

    /// A peer's log whose header names a person with control characters (a buggy or hostile
    /// peer) is applied as any log, and its person is printed escaped, never as terminal codes.
    @Test func aPersonWithControlCharactersInAPeersLogIsPrintedEscaped() throws {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        try phone.output(["item", "add", "Milk"])
        // The header's person rewritten in place; the payload and its checksum stay as they were.
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        let files = try FileManager.default.subpathsOfDirectory(atPath: logs.path).filter { $0.hasSuffix(".gdlog") }
            .map { logs.appendingPathComponent($0) }
        let log = try #require(
            try files.first { String(decoding: try Data(contentsOf: $0), as: UTF8.self).contains("\"Ben\"") })
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"Ben\"", with: "\"Evil\\u001b[2J\\u202e\"").utf8).write(to: log)
        try kitchen.output(["cloud", "sync"])
        let shown = try kitchen.output(["item", "history", "Milk"])
        #expect(!shown.contains("\u{1B}") && !shown.contains("\u{202E}"), "\(shown.debugDescription)")
        #expect(shown.contains(#""Evil\u{1B}[2J\u{202E}" (phone): added"#), "\(shown)")
        #expect(try kitchen.itemNames() == ["Milk"], "the log was applied")
    }
}
