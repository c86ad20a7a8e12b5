import Foundation
import TestSupport
import Testing

/// A list belongs to the account it was made in: listed, opened and announced only there; its
/// name is free in every other account.
@Suite("Named lists belong to their account")
struct NamedListsInAccountsTests {
    let directory = TemporaryDirectory("lists-accounts")
    var cloud: String { directory.path + "/cloud" }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path + "/data", cloud: cloud)
    }

    init() throws {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
    }

    @Test func onOneDeviceAListStaysInItsAccount() throws {
        let a = device("a")
        try a.output(["account", "sign-in", "home"])
        try a.output(["cloud", "enable"])
        try a.output(["lists", "new", "Office"])
        try a.output(["--list", "Office", "item", "add", "Staples"])
        try a.output(["account", "sign-in", "work"])
        #expect(try a.listNames() == ["Groceries"])
        let opened = try a.run(["--list", "Office", "item", "ls"])
        #expect(opened.status != 0 && opened.stderr.contains("no list named"), "\(opened.stderr)")
        try a.output(["lists", "new", "Office"])  // the name is free in this account
        try a.output(["--list", "Office", "item", "add", "Paper"])
        try a.output(["account", "sign-in", "home"])
        #expect(try a.listNames() == ["Groceries", "Office"])
        #expect(try a.itemNames(["--list", "Office"]) == ["Staples"])
        try a.output(["account", "sign-in", "work"])
        #expect(try a.itemNames(["--list", "Office"]) == ["Paper"])
    }

    @Test func aDeviceOfOneAccountNeverSeesAnotherAccountsList() throws {
        let ann = device("ann")
        let bob = device("bob")
        try ann.output(["account", "sign-in", "work"])
        try ann.output(["cloud", "enable"])
        try ann.output(["lists", "new", "Office"])
        try ann.output(["account", "sign-in", "default"])  // ann comes to the account bob uses
        try ann.output(["lists", "ls"])
        try bob.output(["cloud", "enable"])
        #expect(try bob.listNames() == ["Groceries"], "the work list is not announced into default")
        try bob.output(["lists", "new", "Office"])
        #expect(try ann.listNames() == ["Groceries", "Office"])
        let rows =
            try JSONSerialization.jsonObject(with: Data(try ann.output(["lists", "ls", "--json"]).utf8))
            as! [[String: Any]]
        #expect(
            rows.first { $0["name"] as? String == "Office" }?["createdBy"] as? String == "bob",
            "default's Office is bob's")
    }
}
