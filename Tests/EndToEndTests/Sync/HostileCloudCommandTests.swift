import Foundation
import TestSupport
import Testing
import Ubiquity

/// Real processes on a cloud folder in which someone wrote bad files with correct checksums.
@Suite("Hostile files in the cloud folder, from the command line")
struct HostileCloudCommandTests {
    let directory = TemporaryDirectory("hostile-cli")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    var logsFolder: URL { directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs") }

    /// Copies `source` (a log with one inserted item) as log `seq` of `peer`, with the item's
    /// values changed by `change`, a fresh item ID and the peer's own clock; sealed correctly.
    func forge(from source: URL, peer: String, seq: Int, change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: source)
        let parts = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        var header = try JSONSerialization.jsonObject(with: Data(parts[1])) as! [String: Any]
        var record = try JSONSerialization.jsonObject(with: Data(parts[2])) as! [String: Any]
        var inserted = record["inserted"] as! [[String: Any]]
        var values = inserted[0]["values"] as! [String: Any]
        change(&values)
        inserted[0]["values"] = values
        inserted[0]["object"] = ["entity": "Item", "id": UUID().uuidString.lowercased()]
        record["inserted"] = inserted
        record["transactionID"] = UUID().uuidString.lowercased()
        record["clock"] =
            (record["clock"] as! String).split(separator: ".").prefix(2).joined(separator: ".") + "." + peer
        let payload = try JSONSerialization.data(withJSONObject: record)
        header["peer"] = peer
        header["device"] = "evil-\(seq)"
        header["seq"] = seq
        header["length"] = payload.count
        header["crc32"] = String(CRC32.checksum(payload), radix: 16)
        let folder = logsFolder.appendingPathComponent(peer)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sealed =
            Data("GDLOG 1\n".utf8) + (try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
            + Data("\n".utf8) + payload
        try sealed.write(to: folder.appendingPathComponent(String(seq).leftPadded(to: 10) + ".gdlog"))
    }

    nonisolated(unsafe) static let hostile: [(String, (inout [String: Any]) -> Void)] = [
        ("null name", { $0["name"] = NSNull() }),
        ("empty name", { $0["name"] = ["s": ""] }),
        ("invisible name", { $0["name"] = ["s": "\u{FEFF}"] }),
        ("control character", { $0["name"] = ["s": "Tea\u{1B}[2J"] }),
        ("100k-character name", { $0["name"] = ["s": String(repeating: "a", count: 100_000)] }),
        ("negative quantity", { $0["quantity"] = ["d": -2] }),
        ("date of 1e300", { $0["modified"] = ["t": 1e300] }),
        ("date before 1970", { $0["modified"] = ["t": -100] }),
        ("text as a quantity", { $0["quantity"] = ["s": "two"] }),
        ("unit pointing at nothing of its kind", { $0["unit"] = ["s": "kg"] }),
    ]

    @Test func badLogsAreRefusedShownAndEveryoneElseGoesOn() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Tea"])
        let peer = try #require(try FileManager.default.contentsOfDirectory(atPath: logsFolder.path).first)
        let source = logsFolder.appendingPathComponent(peer).appendingPathComponent("0000000001.gdlog")
        var peers: [String] = []
        for (index, (_, change)) in Self.hostile.enumerated() {
            let evil = "evil" + String(index).leftPadded(to: 4)
            peers.append(evil)
            try forge(from: source, peer: evil, seq: 1, change: change)
            try forge(from: source, peer: evil, seq: 2) { $0["name"] = ["s": "after \(evil)"] }
        }
        try kitchen.output(["item", "add", "Bread"])

        let sync = try phone.run(["cloud", "sync"])
        #expect(sync.status != 0, "refused files make cloud sync fail")
        #expect(sync.stderr.contains("\(Self.hostile.count) files were refused"))
        // The sync every command does first counts: kitchen's two logs were imported by it.
        #expect(sync.stdout.contains("imported 2 (2 objects changed)"), "\(sync.stdout)")
        // Kitchen's changes arrived; nothing of the hostile logs nor what waits behind them.
        #expect(try phone.items().map { $0["name"] as! String } == ["Bread", "Tea"])
        // Every command still works on the data it holds.
        #expect(try phone.run(["export"]).status == 0)
        #expect(try phone.run(["item", "ls"]).status == 0)

        let status =
            try JSONSerialization.jsonObject(with: Data(try phone.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        let refused = try #require(status["refused"] as? [[String: Any]])
        #expect(Set(refused.map { $0["peer"] as! String }) == Set(peers))
        #expect(
            refused.allSatisfy {
                ($0["seq"] as? Int) == 1 && ($0["holdsPeer"] as? Bool) == true && $0["device"] as? String == "evil-1"
            })
        #expect(refused.contains { ($0["reason"] as! String).contains("name: it is missing (null)") })
        #expect(refused.contains { ($0["reason"] as! String).contains("quantity: -2 is negative") })

        // Releasing one lets its later log in, and says so in the history.
        try phone.output(["cloud", "release", peers[0], "1", "--yes"])
        #expect(try phone.items().map { $0["name"] as! String }.contains("after \(peers[0])"))
        let history = try phone.output(["cloud", "status"])
        #expect(history.contains("peerReleased: skipped log 1 from device \"evil-1\""))
        #expect(try phone.run(["cloud", "release", peers[0], "1", "--yes"]).status != 0, "nothing left to release")
    }

    @Test func aHalfCopiedBaselineIsReadAgainOnceWholeAndHugeFilesCostNothing() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Tea"])
        try kitchen.output(["item", "add", "Rice"])
        // The baseline is all there is: kitchen's logs are removed once it covers them.
        try kitchen.output(["cloud", "baseline", "--grace-hours", "0"])
        let peer = try #require(try FileManager.default.contentsOfDirectory(atPath: logsFolder.path).first)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logsFolder.appendingPathComponent(peer).path).isEmpty)
        let baseline = directory.url.appendingPathComponent(
            "Cloud/default/GroceryDude/v3/epoch-1/baselines/\(peer)/0000000001.gdbase")
        let whole = try Data(contentsOf: baseline)
        try whole.prefix(whole.count / 2).write(to: baseline)
        // Beside it, a 3 GB file named like a log, and a leftover of a crash in kitchen's folder.
        let huge = logsFolder.appendingPathComponent("evil").appendingPathComponent("0000000001.gdlog")
        try FileManager.default.createDirectory(at: huge.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: huge.path, contents: nil), "the file to grow is made")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 3_000_000_000)
        try handle.close()
        let leftover = logsFolder.appendingPathComponent(peer).appendingPathComponent(".0000000003.gdlog.tmp")
        try Data("half".utf8).write(to: leftover)

        let tablet = device("tablet")
        try tablet.output(["cloud", "enable"])
        #expect(try tablet.items().isEmpty, "half a baseline gives nothing")
        let status = try tablet.output(["cloud", "status"])
        #expect(status.contains("baseline 1 from device \"kitchen\""))
        #expect(status.contains("log 1 from peer evil: not a transaction log"))
        try whole.write(to: baseline)
        #expect(try tablet.items().map { $0["name"] as! String } == ["Rice", "Tea"])
        #expect(!(try tablet.output(["cloud", "status"])).contains("baseline 1 from"))

        try kitchen.output(["item", "ls"])
        #expect(
            !FileManager.default.fileExists(atPath: leftover.path), "the crash's leftover is cleaned at the next start")
    }

    @Test func badEpochMarkersDoNotStartEveryDeviceOver() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Tea"])
        let epochs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/epochs")
        try FileManager.default.createDirectory(
            at: epochs.appendingPathComponent("7.gdepoch"), withIntermediateDirectories: true)
        try Data().write(to: epochs.appendingPathComponent("8.gdepoch"))
        #expect(try kitchen.items().map { $0["name"] as! String } == ["Tea"])
        let status = try kitchen.output(["cloud", "status"])
        #expect(status.contains("Epoch:               1"))
        #expect(status.contains("epochs/7.gdepoch: it is a folder or device, not a file"))
        #expect(status.contains("epochs/8.gdepoch: it is empty"))
    }

    /// A file where the synced key-value folder should be (`<account>/kv`) made every new device's
    /// one-time setup fail at its last step, the default data's flag: every command on that
    /// device failed, even a listing, with a dump of Foundation's error.
    @Test func aFileWhereTheKeyValueFolderShouldBeStopsNoDevice() throws {
        // With the default data: its flag is what a setup writes into the key-value folder.
        let a = CommandRunner(dataDirectory: directory.path, device: "a")
        let b = CommandRunner(dataDirectory: directory.path, device: "b")
        try a.output(["cloud", "enable"])
        try a.output(["cloud", "sync"])
        let keyValues = directory.url.appendingPathComponent("Cloud/default/kv")
        try FileManager.default.removeItem(at: keyValues)
        try Data("not a folder".utf8).write(to: keyValues)

        try b.output(["cloud", "enable"])
        let added = try b.run(["item", "add", "Bought on b"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stderr.contains("cannot write to \(keyValues.path)/") && added.stderr.contains("Not a directory"),
            "\(added.stderr)")
        #expect(!added.stderr.contains("NSCocoaErrorDomain"), "\(added.stderr)")
        #expect(try b.output(["cloud", "status"]).contains("Using local storage: 0"), "the setup finished")

        try b.output(["cloud", "sync"])
        try a.output(["cloud", "sync"])
        let names = try a.items().map { $0["name"] as! String }
        #expect(names.contains("Bought on b"))
        #expect(Set(names).count == names.count, "the default data once, though b added it again: \(names)")
        #expect(try b.items().map { $0["name"] as! String }.sorted() == names.sorted())
    }
}
