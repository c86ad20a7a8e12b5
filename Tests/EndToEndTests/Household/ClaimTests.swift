import Foundation
import TestSupport
import Testing

/// "I'll get it": a claim made on one device shows on the other, and ends by the tick.
@Suite("Claims between two devices")
struct ClaimTests {
    let directory = TemporaryDirectory("claims")
    var cloud: String { directory.file("Cloud").path }

    /// Two devices of two persons, cloud sync on: the kitchen's Anna, the phone's Ben.
    func household() throws -> (kitchen: CommandRunner, phone: CommandRunner) {
        try CommandRunner.household(in: directory.path, cloud: cloud)
    }

    /// Each item's `claimedBy` in `item ls --json`, by name (NSNull when none).
    func claimers(_ device: CommandRunner) throws -> [String: String?] {
        let items =
            try JSONSerialization.jsonObject(with: Data(try device.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: items.map { ($0["name"] as! String, $0["claimedBy"] as? String) })
    }

    @Test func aClaimIsSeenOnTheOtherDeviceAndEndsWhenTheItemIsCollected() throws {
        let (kitchen, phone) = try household()
        try kitchen.output(["item", "add", "Milk"])
        try kitchen.output(["item", "add", "Tea"])
        try kitchen.output(["item", "add", "Salt", "--unlisted"])

        #expect(try phone.output(["item", "claim", "milk"]) == "Claimed \"Milk\" for Ben\n")
        #expect(try claimers(kitchen) == ["Milk": "Ben", "Tea": nil, "Salt": nil])
        #expect(try kitchen.output(["item", "ls"]).contains("Milk (Ben)"))
        #expect(try claimers(phone)["Milk"] == "Ben")

        // Only what is still to get can be claimed.
        let unlisted = try phone.run(["item", "claim", "Salt"])
        #expect(unlisted.status != 0 && unlisted.stderr.contains("not on the shopping list"), "\(unlisted.stderr)")
        try kitchen.output(["item", "collect", "Tea"])
        let collected = try phone.run(["item", "claim", "Tea"])
        #expect(collected.status != 0 && collected.stderr.contains("already collected"), "\(collected.stderr)")

        // Anna collects the milk Ben said he would get: the claim ends, on both devices.
        try kitchen.output(["item", "collect", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == .some(nil))
        #expect(try claimers(phone)["Milk"] == .some(nil))
        // Put back on the list later, it is not Ben's again: the claim was about that trip.
        try kitchen.output(["item", "uncollect", "Milk"])
        #expect(try claimers(phone)["Milk"] == .some(nil))

        // Taken off the list after a claim: ended too.
        try phone.output(["item", "claim", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == "Ben")
        try kitchen.output(["item", "unlist", "Milk"])
        #expect(try claimers(phone)["Milk"] == .some(nil))
    }

    /// `item list` on an item that is listed already, not collected, changes no value, so it
    /// writes nothing: no new reading of `listed`, and the claim made before it stays (a new
    /// trip is an unlist and a list, docs/decisions/0166; docs/decisions/0171 measured the save).
    @Test func listingAnItemThatIsListedAlreadyKeepsItsClaim() throws {
        let (kitchen, phone) = try household()
        try kitchen.output(["item", "add", "Milk"])
        try phone.output(["item", "claim", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == "Ben")

        #expect(try kitchen.output(["item", "list", "Milk"]) == "Listed \"Milk\"\n")
        #expect(try claimers(kitchen)["Milk"] == "Ben")
        #expect(try claimers(phone)["Milk"] == "Ben")

        // Listed again after an unlist, it is a new trip: the claim has ended.
        try kitchen.output(["item", "unlist", "Milk"])
        try kitchen.output(["item", "list", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == .some(nil))
        #expect(try claimers(phone)["Milk"] == .some(nil))
    }

    /// Ben's phone is five minutes fast: Anna's collect, made after she saw the claim, still comes
    /// after it (her device moved its clock past the claim's reading), and ends it for good — put
    /// back (uncollected) a moment later by her slower clock, it is not Ben's again.
    @Test func aClaimFromAClockAheadEndsByTheTickNotByWallTime() throws {
        let (kitchen, phone) = try household()
        try kitchen.output(["item", "add", "Milk"])
        try phone.withClock("+5m").output(["item", "claim", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == "Ben")
        try kitchen.output(["item", "collect", "Milk"])
        try kitchen.output(["item", "uncollect", "Milk"])
        #expect(try claimers(kitchen)["Milk"] == .some(nil))
        #expect(try claimers(phone)["Milk"] == .some(nil))
    }

    @Test func unclaimingAnothersClaimWritesAReleaseOfOnesOwn() throws {
        let (kitchen, phone) = try household()
        try kitchen.output(["item", "add", "Bread"])
        try phone.output(["item", "claim", "Bread"])
        let benFiles = try files(in: "GroceryDude.claims")
        #expect(try kitchen.output(["item", "unclaim", "Bread"]) == "Released Ben's claim on \"Bread\"\n")
        #expect(try claimers(phone)["Bread"] == .some(nil))
        #expect(try claimers(kitchen)["Bread"] == .some(nil))
        // Ben's file is still there, beside Anna's release.
        let after = try files(in: "GroceryDude.claims")
        #expect(benFiles.isSubset(of: after) && after.count == benFiles.count + 1, "\(after)")
        let nobody = try kitchen.run(["item", "unclaim", "Bread"])
        #expect(nobody.status != 0 && nobody.stderr.contains("nobody has claimed"), "\(nobody.stderr)")

        // Claimed again: the latest by clock reading wins.
        #expect(try kitchen.output(["item", "claim", "Bread"]) == "Claimed \"Bread\" for Anna\n")
        #expect(try phone.output(["item", "claim", "Bread"]) == "Claimed \"Bread\" for Ben (it was Anna's)\n")
        #expect(try claimers(kitchen)["Bread"] == "Ben")
    }

    @Test func aClaimExpiresTwelveHoursAfterTheReaderFirstSawIt() throws {
        let (kitchen, phone) = try household()
        try kitchen.output(["item", "add", "Eggs"])
        try phone.output(["item", "claim", "Eggs"])
        #expect(try claimers(kitchen)["Eggs"] == "Ben", "first seen now")
        #expect(try claimers(kitchen.withClock("+11h"))["Eggs"] == "Ben")
        #expect(try claimers(kitchen.withClock("+13h"))["Eggs"] == .some(nil), "12 hours after the kitchen saw it")
        // A device that first sees it later gives it its 12 hours from then.
        let pantry = CommandRunner.device("pantry", in: directory.path, cloud: cloud)
        try pantry.output(["cloud", "enable", "--no-merge"])
        #expect(try claimers(pantry.withClock("+13h"))["Eggs"] == "Ben")
    }

    /// The files under the account's folder `name`, relative to it.
    func files(in name: String) throws -> Set<String> {
        let folder = directory.url.appendingPathComponent("Cloud/default/\(name)")
        var found: Set<String> = []
        for peer in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(peer).path) {
                found.insert("\(peer)/\(file)")
            }
        }
        return found
    }
}
