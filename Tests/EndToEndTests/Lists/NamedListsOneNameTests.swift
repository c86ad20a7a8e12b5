import Foundation
import TestSupport
import Testing

/// One name never silently means two lists: two lists made apart under one name both stay, are
/// shown apart with their store names, and a command naming them is refused with both named.
@Suite("Two lists under one name")
struct NamedListsOneNameTests {
    let directory = TemporaryDirectory("lists-one-name")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path + "/data", cloud: cloud)
    }

    func rows(_ runner: CommandRunner) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try runner.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
    }

    @Test func twoListsMadeApartUnderOneNameAreShownApartAndNeverPickedSilently() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        for peer in [a, b] { try peer.output(["cloud", "offline"]) }
        try a.output(["lists", "new", "Dinner"])
        try a.output(["--list", "Dinner", "item", "add", "Pasta"])
        try b.output(["lists", "new", "dinner"])
        try b.output(["--list", "dinner", "item", "add", "Rice"])
        for peer in [a, b] { try peer.output(["cloud", "online"]) }

        for peer in [a, b] {
            let dinners = try rows(peer).filter { ($0["name"] as! String).lowercased() == "dinner" }
            #expect(dinners.count == 2, "\(peer.device): both stay: \(dinners)")
            #expect(Set(dinners.compactMap { $0["madeBy"] as? String }) == ["a", "b"])
            let text = try peer.output(["lists", "ls"])
            for row in dinners { #expect(text.contains("store \(row["store"] as! String)"), "\(text)") }
        }
        let stores = Dictionary(
            uniqueKeysWithValues: try rows(b).filter { ($0["name"] as! String).lowercased() == "dinner" }
                .map { ($0["madeBy"] as! String, $0["store"] as! String) })
        // Naming them is refused, with both named; a store name names one.
        for command in [
            ["--list", "Dinner", "item", "add", "Bread"], ["--list", "dinner", "item", "ls"],
            ["lists", "rename", "Dinner", "Supper"],
        ] {
            let refused = try b.run(command)
            #expect(refused.status != 0, "\(command)")
            #expect(
                refused.stderr.contains(stores["a"]!) && refused.stderr.contains(stores["b"]!),
                "\(command): \(refused.stderr)")
        }
        #expect(try b.itemNames(["--list", stores["b"]!]) == ["Rice"], "its own items stay reachable")
        #expect(try b.itemNames(["--list", stores["a"]!]) == ["Pasta"])
        try b.output(["--list", stores["b"]!, "item", "add", "Beans"])
        #expect(try a.itemNames(["--list", stores["b"]!]) == ["Beans", "Rice"], "lands in b's list, not a's")
    }
}
