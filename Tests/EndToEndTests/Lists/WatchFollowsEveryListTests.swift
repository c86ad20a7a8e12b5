import Foundation
import TestSupport
import Testing

/// `cloud watch` keeps every list of the device in sync, not only the one it runs on: lists made
/// on another device while it runs are set up and imported without a command on this device, and
/// a watched list merged away elsewhere is told with where its items went.
@Suite("cloud watch follows every list")
struct WatchFollowsEveryListTests {
    let directory = TemporaryDirectory("watch-every-list")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func event(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    /// The stores of list `prefix…` on device `name`, in its cloud stores' folder.
    func storeFolders(of name: String, _ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path + "/devices/\(name)/ubiquity/default"))
            ?? [])
            .filter { $0.hasPrefix(prefix) }
    }

    @Test func listsMadeElsewhereWhileItRunsAreSetUpAndImported() throws {
        let x = device("x")
        let y = device("y")
        for peer in [x, y] { try peer.output(["cloud", "enable"]) }
        try x.output(["cloud", "sync"])
        let watch = try x.start(["cloud", "watch", "--json"])
        #expect(
            watch.waitForLine { $0.contains(#""event": "store""#) && $0.contains(#""using_local_storage": false"#) }
                != nil,
            "\(watch.stdoutLines) \(watch.stderrLines)")

        try y.output(["lists", "new", "Trip"])
        try y.output(["--list", "Trip", "item", "add", "Tent"])
        try y.output(["--list", "Trip", "item", "add", "Rope"])
        let trip = try #require(
            watch.waitForLine { event($0)["list"] as? String == "Trip" && event($0)["event"] as? String == "imported" },
            "\(watch.stdoutLines) \(watch.stderrLines)")
        #expect(event(trip)["devices"] as? [String] == ["y"])
        #expect(storeFolders(of: "x", "Trip-").count == 1, "x holds the list's store without a command of its own")

        // A later change, and a second list, each reach x on its own.
        try y.output(["--list", "Trip", "item", "add", "Map"])
        try y.output(["lists", "new", "Camp"])
        try y.output(["--list", "Camp", "item", "add", "Stove"])
        let index = watch.stdoutLines.count
        #expect(
            watch.waitForLine(after: index) { event($0)["list"] as? String == "Camp" } != nil, "\(watch.stdoutLines)")
        // Every change to Trip told once, in however many lines.
        func tripChanges() -> Int {
            watch.stdoutLines.filter { event($0)["list"] as? String == "Trip" }.compactMap {
                event($0)["changes"] as? Int
            }.reduce(0, +)
        }
        #expect(
            watch.waitForLine { _ in tripChanges() >= 3 } != nil && tripChanges() == 3,
            "Tent, Rope and Map: \(watch.stdoutLines)")
        #expect(watch.stop() == 0)

        // What x imported in the background is what y has.
        for list in ["Trip", "Camp"] {
            #expect(try x.itemNames(["--list", list]) == y.itemNames(["--list", list]), "\(list)")
        }
    }

    @Test func aWatchedListMergedAwayElsewhereIsToldWithWhereItsItemsWent() throws {
        let x = device("x")
        let y = device("y")
        for peer in [x, y] { try peer.output(["cloud", "enable"]) }
        try y.output(["lists", "new", "Trip"])
        try y.output(["--list", "Trip", "item", "add", "Tent"])
        try y.output(["lists", "new", "Camp"])
        try x.output(["--list", "Trip", "item", "add", "Rope"])
        let watch = try x.start(["--list", "Trip", "cloud", "watch", "--json"])
        #expect(
            watch.waitForLine { $0.contains(#""event": "store""#) } != nil, "\(watch.stdoutLines) \(watch.stderrLines)")

        try y.output(["lists", "merge", "Trip", "--into", "Camp", "--yes"])
        let camp = try #require(
            try y.output(["lists", "ls", "--json"]).components(separatedBy: "\"").first { $0.hasPrefix("Camp-") })
        let gone = try #require(
            watch.waitForLine { event($0)["event"] as? String == "listGone" },
            "\(watch.stdoutLines) \(watch.stderrLines)")
        #expect(event(gone)["survivor"] as? String == camp)
        #expect(watch.stop() == 0)
        #expect(
            try y.itemNames(["--list", "Camp"]) == ["Rope", "Tent"],
            "x's item reached Trip before the merge, and Camp with it")
        #expect(try x.itemNames(["--list", "Trip"]) == ["Rope", "Tent"], "the merged-away name finds the survivor")
    }
}
