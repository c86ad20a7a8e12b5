import Foundation
import TestSupport
import Testing

/// Who is shopping where: `shopping start` on one device, `who` on the other, and presence that
/// expires by itself when its device stops refreshing it.
@Suite("Who is shopping where")
struct PresenceTests {
    let directory = TemporaryDirectory("presence")
    var cloud: String { directory.file("Cloud").path }

    /// Two devices of two persons, cloud sync on: the kitchen's Anna, the phone's Ben; a shop Aldi.
    func household() throws -> (kitchen: CommandRunner, phone: CommandRunner) {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        try phone.output(["shops", "new", "Aldi"])
        return (kitchen, phone)
    }

    /// `who --json`, as (person, device, shop) triples.
    func shopping(_ device: CommandRunner) throws -> [String] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try device.output(["who", "--json"]).utf8))
            as! [[String: Any]]
        for row in rows { #expect(row["since"] is String, "\(row)") }
        return rows.map { "\($0["person"] as! String)/\($0["device"] as! String)/\($0["shop"] as? String ?? "-")" }
    }

    @Test func shoppingIsShownOnTheOtherDeviceUntilStoppedOrTwoHours() throws {
        let (kitchen, phone) = try household()
        #expect(try kitchen.output(["who"]) == "Nobody is shopping now.\n")
        #expect(try phone.output(["shopping", "start", "--in", "aldi"]).hasPrefix("Shopping at Aldi"))
        #expect(try shopping(kitchen) == ["Ben/phone/Aldi"])
        #expect(try kitchen.output(["who"]).hasPrefix("Ben is shopping at Aldi (device phone, since "))
        try phone.output(["shopping", "stop"])
        #expect(try shopping(kitchen) == [])

        // Without a shop; then left running: two hours from when the kitchen first saw it.
        try phone.output(["shopping", "start"])
        #expect(try shopping(kitchen) == ["Ben/phone/-"])
        #expect(try shopping(kitchen.withClock("+110m")) == ["Ben/phone/-"])
        #expect(try shopping(kitchen.withClock("+3h")) == [])
        // Only this device's files: the phone replaced its own older ones.
        let peers = try FileManager.default.contentsOfDirectory(atPath: "\(cloud)/default/GroceryDude.presence")
        #expect(peers.count == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(cloud)/default/GroceryDude.presence/\(peers[0])")
                .count == 1)

        let unknown = try phone.run(["shopping", "start", "--in", "Lidl"])
        #expect(unknown.status != 0, "\(unknown.stdout)")
        // Offline, nobody can be seen and nothing is written: errors, not an empty list.
        try kitchen.output(["cloud", "offline"])
        for arguments in [["who"], ["shopping", "start"]] {
            let offline = try kitchen.run(arguments)
            #expect(offline.status != 0 && offline.stderr.contains("offline"), "\(arguments): \(offline.stderr)")
        }
    }

    @Test func aKilledDeviceStopsShowingAsShoppingByItself() throws {
        let (kitchen, phone) = try household()
        try phone.output(["shopping", "start", "--in", "Aldi"])
        // `cloud watch` keeps the phone's presence fresh: a note that lives 3 minutes, each minute.
        let watch = try phone.start(["cloud", "watch"])
        defer { _ = watch.stop(SIGKILL) }
        let folder = directory.url.appendingPathComponent("Cloud/default/GroceryDude.presence")
        try Poll.until(every: 0.2, "the watch refreshed the phone's presence") {
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
            return try files.filter { $0.hasSuffix(".gdpresence") }.contains {
                try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).contains(
                    "\"refreshed\":true")
            }
        }
        #expect(watch.stop(SIGKILL) != 0)
        #expect(try shopping(kitchen) == ["Ben/phone/Aldi"])
        #expect(try shopping(kitchen.withClock("+2m")) == ["Ben/phone/Aldi"])
        #expect(try shopping(kitchen.withClock("+4m")) == [], "3 minutes after the kitchen saw the last note")
    }
}
