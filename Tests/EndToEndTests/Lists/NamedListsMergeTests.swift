import Foundation
import TestSupport
import Testing

/// `lists merge`: two lists made apart under one name become one on every device, every item of
/// both kept with the time it was last changed, and what arrives late for the merged-away list
/// lands in the survivor.
@Suite("Merging two lists")
struct NamedListsMergeTests {
    let directory = TemporaryDirectory("lists-merge")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path + "/data", cloud: cloud)
    }

    /// Two devices that each made a "Dinner" while apart, with items, then synced.
    func twoDinners() throws -> (a: CommandRunner, b: CommandRunner, ofA: String, ofB: String) {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        for peer in [a, b] { try peer.output(["cloud", "offline"]) }
        try a.output(["lists", "new", "Dinner"])
        try a.output(["--list", "Dinner", "item", "add", "Pasta"])
        try a.output(["--list", "Dinner", "item", "add", "Milk", "--quantity", "2"])
        try b.output(["lists", "new", "dinner"])
        try b.output(["--list", "dinner", "item", "add", "Rice"])
        try b.output(["--list", "dinner", "item", "add", "milk", "--quantity", "5"])
        for peer in [a, b] { try peer.output(["cloud", "online"]) }
        let rows =
            try JSONSerialization.jsonObject(with: Data(try a.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let stores = Dictionary(
            uniqueKeysWithValues: rows.filter { $0["madeBy"] is String }.map {
                ($0["madeBy"] as! String, $0["store"] as! String)
            })
        return (a, b, try #require(stores["a"]), try #require(stores["b"]))
    }

    func quantities(_ peer: CommandRunner, _ list: String) throws -> [String: Int] {
        Dictionary(
            try peer.items(["--list", list]).map { (($0["name"] as! String).lowercased(), $0["quantity"] as! Int) }
        ) { first, _ in first }
    }

    @Test func twoListsOfOneNameMergeIntoOneAndALateOfflineEditLandsByItsOwnTime() throws {
        let (a, b, ofA, ofB) = try twoDinners()
        // b, offline, edits two items of its own list: made before the merge, arriving after it.
        try b.output(["cloud", "offline"])
        try b.output(["--list", ofB, "item", "edit", "milk", "--quantity", "9"])
        try b.output(["--list", ofB, "item", "edit", "Rice", "--quantity", "3"])

        // a merges b's list into its own, then edits Rice in it: later than b's edit.
        let refused = try a.run(["lists", "merge", ofB, "--into", ofA])
        #expect(refused.status != 0 && refused.stderr.contains("--yes"), "a script must say --yes: \(refused.stderr)")
        let merged = try a.output(["lists", "merge", ofB, "--into", ofA, "--yes"])
        #expect(merged.contains("Merged") && merged.contains(ofB) && merged.contains(ofA), "\(merged)")
        #expect(
            try quantities(a, "Dinner") == ["pasta": 1, "milk": 5, "rice": 1],
            "one list, one milk: b's, written after a's" as Comment)
        #expect(try a.listNames() == ["Dinner", "Groceries"])
        try a.output(["--list", "Dinner", "item", "edit", "Rice", "--quantity", "4"])

        // b comes back: told once, its late edits carried into the survivor.
        let online = try b.run(["cloud", "online"])
        #expect(online.status == 0, "\(online.stderr)")
        let told = try b.run(["--list", "Dinner", "item", "ls"])
        let notes = (online.stderr + told.stderr).components(separatedBy: "was merged into").count - 1
        #expect(notes == 1, "the merge is told once: \(online.stderr) / \(told.stderr)")
        #expect(!(try b.run(["lists", "ls"]).stderr.contains("was merged into")), "and only once")
        try a.output(["cloud", "sync"])
        for peer in [a, b] {
            #expect(try peer.listNames() == ["Dinner", "Groceries"], "\(peer.device)")
            let expected = ["pasta": 1, "milk": 9, "rice": 4]
            #expect(
                try quantities(peer, "Dinner") == expected,
                "\(peer.device): b's milk edit wins over the copy, a's later Rice edit over b's")
            // The merged-away list's store name still finds the list its items went to.
            #expect(try peer.itemNames(["--list", ofB]) == peer.itemNames(["--list", ofA]))
        }
        // Each publishes its digest, then each compares with the other's.
        for peer in [a, b, a, b] {
            let verify = try peer.run(["--list", "Dinner", "cloud", "verify"])
            #expect(
                verify.status == 0 && !verify.stdout.contains("DIVERGED"),
                "\(peer.device): \(verify.stdout) \(verify.stderr)")
        }
        for peer in [a, b] {
            let verify = try peer.run(["--list", "Dinner", "cloud", "verify"])
            #expect(verify.stdout.contains("Agrees with"), "\(peer.device): \(verify.stdout)")
        }
        // Merged again (a script run twice): refused, saying the two are one list now.
        let again = try a.run(["lists", "merge", ofB, "--into", ofA, "--yes"])
        #expect(again.status == 1 && again.stderr.contains("are one list now"), "\(again.stderr)")
        // A command still naming the merged-away list by its name lands in the survivor.
        try b.output(["--list", "dinner", "item", "add", "Beans"])
        try a.output(["cloud", "sync"])
        #expect(try a.itemNames(["--list", ofA]).contains("Beans"))
    }

    @Test func aMergeThatCannotBeIsRefusedAndChangesNothing() throws {
        let (a, _, ofA, ofB) = try twoDinners()
        let ambiguous = try a.run(["--list", "Dinner", "item", "ls"])
        #expect(
            ambiguous.status != 0 && ambiguous.stderr.contains("lists merge"),
            "the refusal says how to merge: \(ambiguous.stderr)")
        for (command, reason) in [
            (["lists", "merge", ofA, "--into", ofA, "--yes"], "into itself"),
            (["lists", "merge", "Groceries", "--into", ofA, "--yes"], "default list cannot be merged away"),
            (["lists", "merge", "Dinner", "--into", ofA, "--yes"], "answer to"),
            (["lists", "merge", "Nope", "--into", ofA, "--yes"], "no list named"),
        ] {
            let result = try a.run(command)
            #expect(result.status != 0 && result.stderr.contains(reason), "\(command): \(result.stderr)")
        }
        #expect(try a.itemNames(["--list", ofA]) == ["Milk", "Pasta"])
        #expect(try a.itemNames(["--list", ofB]) == ["Rice", "milk"])
        #expect(try a.listNames() == ["Dinner", "Groceries", "dinner"])
    }
}
