import Foundation
import StoreLifecycle
import TestSupport
import Testing

/// What a shell offers for `--list`: the device's lists as its own files know them (the registry
/// `lists.json`, its settings, its stores), in the scope it works in, never what only the cloud
/// folder knows. The install test checks the shells and that the cloud folder is not touched.
@Suite("List names for shell completion")
struct ListNameCompletionTests {
    let directory = TemporaryDirectory("list-completion")
    var data: String { directory.path + "/data" }
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner { .device(name, in: data, cloud: cloud) }

    func offered(_ name: String) throws -> [String] {
        NamedLists.namesForCompletion(
            of: try DeviceSandbox(dataDirectory: URL(fileURLWithPath: data), device: name))
    }

    @Test func theDeviceListsInItsScopeWithSharedNamesAsStoreNames() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let a = device("a")
        let b = device("b")
        try b.output(["lists", "new", "Made Offline"])
        for peer in [a, b] { try peer.output(["cloud", "enable", "--no-merge"]) }
        for peer in [a, b] { try peer.output(["cloud", "offline"]) }
        try a.output(["lists", "new", "Dinner"])
        try b.output(["lists", "new", "dinner"])
        try a.output(["lists", "new", "Trip"])
        try a.output(["lists", "rm", "Trip", "--yes"])
        for peer in [a, b] { try peer.output(["cloud", "online"]) }

        try b.output(["lists", "ls"])  // reads the lists: the registry learns what a announced
        let rows =
            try JSONSerialization.jsonObject(with: Data(try b.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let dinners = rows.filter { ($0["name"] as! String).lowercased() == "dinner" }.map { $0["store"] as! String }
        #expect(dinners.count == 2)
        #expect(Set(try offered("b")) == Set(["Groceries"] + dinners), "one name, two lists: their store names")
        #expect(!(try offered("b")).contains("Trip"), "removed")
        #expect(!(try offered("b")).contains("Made Offline"), "made with sync off: the local store's")

        // Without the cloud folder the names are the same: they never came from it.
        try FileManager.default.moveItem(atPath: cloud, toPath: cloud + "-away")
        #expect(Set(try offered("b")) == Set(["Groceries"] + dinners))
        try FileManager.default.moveItem(atPath: cloud + "-away", toPath: cloud)

        try b.output(["cloud", "disable"])
        #expect(try offered("b") == ["Groceries", "Made Offline"], "sync off: the local store's lists")
    }
}
