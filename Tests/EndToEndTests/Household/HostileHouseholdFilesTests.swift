import Foundation
import TestSupport
import Testing

/// Claim and presence files that anyone with write access to the share may have put there:
/// each is refused alone and reported, and nothing else waits.
@Suite("Hostile claim and presence files")
struct HostileHouseholdFilesTests {
    let directory = TemporaryDirectory("hostile-household")
    var cloud: String { directory.file("Cloud").path }
    var claims: URL { directory.url.appendingPathComponent("Cloud/default/GroceryDude.claims") }
    var presence: URL { directory.url.appendingPathComponent("Cloud/default/GroceryDude.presence") }

    /// A file as a device writes one: the magic line, the JSON line, its CRC-32 in hex.
    func sealed(_ magic: String, _ json: [String: Any?]) throws -> Data {
        let line = try JSONSerialization.data(
            withJSONObject: json.mapValues { $0 ?? NSNull() }, options: [.sortedKeys])
        return Data("\(magic)\n".utf8) + line + Data("\n\(String(crc32(line), radix: 16))\n".utf8)
    }

    func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    /// Writes `data` as `<folder>/<peer>/0000000001.<ext>`.
    func plant(_ data: Data, in folder: URL, peer: String, ext: String) throws {
        let peerFolder = folder.appendingPathComponent(peer)
        try FileManager.default.createDirectory(at: peerFolder, withIntermediateDirectories: true)
        try data.write(to: peerFolder.appendingPathComponent("0000000001.\(ext)"))
    }

    func claim(peer: String, item: String, wall: Int64, account: String = "default") -> [String: Any?] {
        [
            "account": account, "store": "GroceryDude", "peer": peer, "device": "evil", "person": "Mallory",
            "item": item, "itemName": "Milk", "reading": String(format: "%016lld.000000.%@", wall, peer),
            "kind": "claim", "written": "2026-11-28T10:00:00.000Z",
        ]
    }

    func presenceNote(peer: String, since: String, account: String = "default") -> [String: Any?] {
        [
            "account": account, "store": "GroceryDude", "peer": peer, "device": "evil", "person": "Mallory",
            "shop": nil, "kind": "shopping", "since": since, "refreshed": false, "written": since,
        ]
    }

    @Test func eachBadFileIsRefusedAloneAndNothingWaits() throws {
        let (kitchen, phone) = try CommandRunner.household(in: directory.path, cloud: cloud)
        try kitchen.output(["item", "add", "Milk"])
        let items =
            try JSONSerialization.jsonObject(with: Data(try kitchen.output(["item", "ls", "--json"]).utf8))
            as! [[String: Any]]
        let milk = try #require(items.first?["id"] as? String)
        try phone.output(["item", "claim", "Milk"])
        try phone.output(["shopping", "start"])
        let now = Int64(Date().timeIntervalSince1970 * 1000)

        // Huge, garbage, a claim read ten years ahead, another account's, and one in a folder
        // that is not its peer's.
        try plant(Data(count: 5_000_000), in: claims, peer: "huge", ext: "gdclaim")
        try plant(Data("hello\n".utf8), in: claims, peer: "garbage", ext: "gdclaim")
        try plant(
            try sealed("GDCLAIM 1", claim(peer: "future", item: milk, wall: now + 10 * 365 * 86_400_000)),
            in: claims, peer: "future", ext: "gdclaim")
        try plant(
            try sealed("GDCLAIM 1", claim(peer: "stranger", item: milk, wall: now + 1000, account: "other")),
            in: claims, peer: "stranger", ext: "gdclaim")
        try plant(
            try sealed("GDCLAIM 1", claim(peer: "someone", item: milk, wall: now + 1000)),
            in: claims, peer: "impostor", ext: "gdclaim")
        // A link, a folder and a FIFO named like presence files.
        try FileManager.default.createDirectory(
            at: presence.appendingPathComponent("link"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: presence.appendingPathComponent("link/0000000001.gdpresence").path,
            withDestinationPath: "/etc/passwd")
        try FileManager.default.createDirectory(
            at: presence.appendingPathComponent("folder/0000000001.gdpresence"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: presence.appendingPathComponent("fifo"), withIntermediateDirectories: true)
        #expect(mkfifo(presence.appendingPathComponent("fifo/0000000001.gdpresence").path, 0o644) == 0)
        // A presence that says it began in 2099: the reader's clock decides when it ends.
        try plant(
            try sealed("GDPRESENCE 1", presenceNote(peer: "late", since: "2099-01-01T00:00:00.000Z")),
            in: presence, peer: "late", ext: "gdpresence")

        let listing = try kitchen.run(["item", "ls", "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let claimed = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as! [[String: Any]]
        #expect(claimed.first?["claimedBy"] as? String == "Ben", "Ben's claim holds; none of the bad files counts")
        for peer in ["huge", "garbage", "future", "stranger", "impostor", "link", "folder", "fifo"] {
            #expect(listing.stderr.contains("/\(peer)/0000000001."), "told on stderr: \(peer)\n\(listing.stderr)")
        }
        #expect(listing.stderr.contains("5000000 bytes"), "\(listing.stderr)")
        #expect(listing.stderr.contains("more than a day ahead"), "\(listing.stderr)")
        #expect(listing.stderr.contains("account \"other\""), "\(listing.stderr)")
        #expect(listing.stderr.contains("a symbolic link"), "\(listing.stderr)")
        // Each is told once.
        #expect(try kitchen.run(["item", "ls"]).stderr.isEmpty)

        // Listed by cloud status, none holding anything back.
        let status =
            try JSONSerialization.jsonObject(with: Data(try kitchen.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        let refused = try #require(status["refused"] as? [[String: Any]])
        #expect(refused.count == 8, "\(refused)")
        #expect(refused.allSatisfy { $0["holdsPeer"] as? Bool == false })
        #expect(Set(refused.compactMap { $0["kind"] as? String }) == ["claim", "presence"])

        // Nothing waits: the phone's changes arrive, its presence shows, beside the late one.
        try phone.output(["item", "add", "Bread"])
        #expect(try kitchen.itemNames() == ["Bread", "Milk"])
        let who = try kitchen.output(["who"])
        #expect(
            who.contains("Ben is shopping (device phone") && who.contains("Mallory is shopping (device evil"), "\(who)")
        let later = try kitchen.withClock("+3h").output(["who"])
        #expect(later == "Nobody is shopping now.\n", "a time from 2099 pins nothing: \(later)")
    }
}
