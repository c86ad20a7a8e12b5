import Foundation
import TestSupport
import Testing

/// Two machines sharing the cloud folder through real Syncthing (`scripts/syncthing-pair.sh`):
/// a device on each, using its machine's copy of the folder, with the real binary.
@Suite("Two machines through Syncthing")
struct SyncthingPairTests {
    static let notInstalled =
        "syncthing is not installed and could not be: scripts/install-deps.sh installs it (Debian's syncthing package)"

    /// The shipped default data: 138 items.
    static let shippedItems = 138
    /// Rounds of adds on both machines at once.
    static let rounds = 2

    func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// Runs one command on each device at the same moment; both must succeed.
    func together(_ first: (CommandRunner, [String]), _ second: (CommandRunner, [String])) throws {
        let runs = [first, second]
        nonisolated(unsafe) var results = [CommandResult?](repeating: nil, count: 2)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = try? runs[index].0.run(runs[index].1)
            lock.withLock { results[index] = result }
        }
        for (index, result) in results.enumerated() {
            let result = try #require(result, "\(runs[index].0.device) \(runs[index].1) did not run")
            try #require(
                result.status == 0, "\(runs[index].0.device) \(runs[index].1) exited \(result.status): \(result.stderr)"
            )
        }
    }

    /// Waits until Syncthing has carried every file both ways and the devices hold the same
    /// data (their exports are byte for byte the same; every command imports first).
    func converge(_ pair: SyncthingPair, _ runners: [CommandRunner], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let started = Date()
        var carried = started
        // Each round waits for Syncthing to settle first: that paces the loop.
        try Poll.until(
            every: 0,
            "the devices converged: \((try? runners.map { "\($0.device): \(try $0.itemNames())" }) ?? []) "
                + "(line \(sourceLocation.line))"
        ) {
            try pair.settle(timeout: 60)
            carried = Date()
            return Set(try runners.map { try $0.output(["export"]) }).count == 1
        }
        // Where the time goes, on a busy machine: Syncthing's, or the commands'.
        print(
            String(
                format: "converged (line %d): carried in %.1f s, compared in %.1f s", sourceLocation.line,
                carried.timeIntervalSince(started), Date().timeIntervalSince(carried)))
    }

    @Test(.enabled(if: SyncthingPair.executable != nil, Comment(rawValue: notInstalled)))
    func twoMachinesConvergeWithoutConflictCopies() throws {
        // The body's own time (a run of every suite at once keeps a test waiting for a thread).
        let started = Date()
        let pair = try SyncthingPair()
        defer { pair.stop() }
        print(
            String(
                format: "Syncthing pair up on ports %d…%d in %.1f s", pair.port, pair.port + 3,
                Date().timeIntervalSince(started)))
        defer { print(String(format: "two machines through Syncthing: %.1f s", Date().timeIntervalSince(started))) }
        let kitchen = CommandRunner(
            dataDirectory: pair.directory.file("a/data").path, device: "kitchen",
            environment: ["GROCERY_DUDE_CLOUD": pair.a.path])
        let phone = CommandRunner(
            dataDirectory: pair.directory.file("b/data").path, device: "phone",
            environment: ["GROCERY_DUDE_CLOUD": pair.b.path])
        let both = [kitchen, phone]

        // Both machines turn sync on at once: each sets the default data up before it sees
        // the other's files, and they are one set.
        try together((kitchen, ["cloud", "enable", "--no-merge"]), (phone, ["cloud", "enable", "--no-merge"]))
        try converge(pair, both)
        #expect(try kitchen.itemNames().count == Self.shippedItems)
        #expect(try json(try kitchen.output(["dedupe", "--json"])).isEmpty)

        // Adds on both at once — the same new name on both, and more items each, so that
        // files are in flight while the other imports — and edits of the same item.
        try together(
            (kitchen, ["item", "add", "Oat Milk", "--qty", "1"]), (phone, ["item", "add", "Oat Milk", "--qty", "2"]))
        for round in 1...Self.rounds {
            try together((kitchen, ["item", "add", "Kitchen \(round)"]), (phone, ["item", "add", "Phone \(round)"]))
        }
        try together(
            (kitchen, ["item", "edit", "Milk", "--qty", "3", "--note", "from the kitchen"]),
            (phone, ["item", "edit", "Milk", "--qty", "4", "--home-location", "Pantry"]))
        // A delete on one while the other edits: the delete is final.
        try together((kitchen, ["item", "rm", "Bananas"]), (phone, ["item", "edit", "Bananas", "--qty", "6"]))
        try converge(pair, both)

        for runner in both {
            let items = try runner.items()
            let milk = try #require(items.first { $0["name"] as? String == "Milk" })
            #expect(
                milk["note"] as? String == "from the kitchen" && milk["homeLocation"] as? String == "Pantry",
                "\(runner.device): edits of different properties both stay: \(milk)")
            #expect(
                [3.0, 4.0].contains(milk["quantity"] as? Double),
                "\(runner.device): one of the quantities wins: \(milk)")
            #expect(!items.contains { $0["name"] as? String == "Bananas" }, "\(runner.device): the delete is final")
            #expect(
                items.filter { $0["name"] as? String == "Oat Milk" }.count == 2, "\(runner.device): both adds arrived")
        }

        // Both deduplicate at once: they keep the same copy, and one is left.
        try together((kitchen, ["dedupe"]), (phone, ["dedupe"]))
        try converge(pair, both)
        for runner in both {
            let names = try runner.itemNames()
            #expect(names.count == Set(names).count, "\(runner.device): no duplicates: \(names)")
            #expect(
                names.count == Self.shippedItems - 1 + 1 + 2 * Self.rounds,
                "Bananas deleted, one Oat Milk, the rounds' items")
            #expect(try json(try runner.output(["dedupe", "--json"])).isEmpty)
        }

        // A baseline removes the kitchen's covered logs (Syncthing deletes them on the phone's
        // machine too); a device that joins on the phone's machine starts from it.
        try kitchen.output(["cloud", "baseline", "--grace-hours", "0"])
        try phone.output(["item", "add", "After the baseline"])
        let pantry = CommandRunner(
            dataDirectory: pair.directory.file("b/data-pantry").path, device: "pantry",
            environment: ["GROCERY_DUDE_CLOUD": pair.b.path])
        try converge(pair, both)
        try pantry.output(["cloud", "enable", "--no-merge"])
        try converge(pair, both + [pantry])
        #expect(try pantry.itemNames().contains("After the baseline"))

        // A start over on one machine: the other moves its store aside, and both go on empty.
        try phone.output(["cloud", "start-over", "--yes"])
        try converge(pair, both)
        try kitchen.output(["item", "add", "A fresh start"])
        try converge(pair, both)
        for runner in both {
            #expect(try runner.itemNames() == ["A fresh start"], "\(runner.device): nothing of the old data came back")
            let status = try #require(
                try JSONSerialization.jsonObject(with: Data(try runner.output(["cloud", "status", "--json"]).utf8))
                    as? [String: Any])
            #expect(
                (status["refused"] as? [Any])?.isEmpty == true,
                "\(runner.device): nothing was refused: \(status["refused"] ?? "")")
        }

        // Both machines start over at the same moment: each writes a marker of its own, so no
        // name has two contents, and both end in the same epoch with the same data.
        try together((kitchen, ["cloud", "start-over", "--yes"]), (phone, ["cloud", "start-over", "--yes"]))
        try converge(pair, both)
        try together((kitchen, ["item", "add", "Kitchen after"]), (phone, ["item", "add", "Phone after"]))
        try converge(pair, both)
        var epochs: Set<Int> = []
        for runner in both {
            #expect(try runner.itemNames() == ["Kitchen after", "Phone after"], "\(runner.device): one outcome")
            let status = try #require(
                try JSONSerialization.jsonObject(with: Data(try runner.output(["cloud", "status", "--json"]).utf8))
                    as? [String: Any])
            epochs.insert(try #require(status["epoch"] as? Int))
        }
        #expect(epochs.count == 1, "both devices are in one epoch: \(epochs)")

        #expect(pair.conflicts.isEmpty, "Syncthing made conflict copies: \(pair.conflicts.sorted())")
        // What was in flight: Syncthing's temporary files, which every import above ignored.
        print("Syncthing's temporary files seen while the devices synced: \(pair.temporaries.count)")
    }
}
