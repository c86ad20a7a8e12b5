import Foundation
import TestSupport
import Testing

/// Each device audits what it published: an own log or baseline that went missing, was cut short
/// or zeroed is covered by a new baseline, so no device waits for it; a device whose store also
/// lost that save numbers on after it and gets the save back from a device that applied it.
@Suite("A device audits its own published history")
struct OwnHistoryAuditTests {
    let directory = TemporaryDirectory("own-audit")
    var cloud: URL { directory.file("cloud") }
    var epoch: URL { cloud.appendingPathComponent("default/GroceryDude/v3/epoch-1") }

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path, cloud: cloud.path)
    }

    func peerID(_ device: CommandRunner) throws -> String {
        let status =
            try JSONSerialization.jsonObject(with: Data(try device.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
        return status["peerID"] as! String
    }

    func log(_ seq: Int, of peer: String) -> URL {
        epoch.appendingPathComponent("logs/\(peer)/" + String(format: "%010d.gdlog", seq))
    }

    enum Damage: String, CaseIterable, Sendable { case deleted, truncated, zeroed }

    func damage(_ file: URL, _ damage: Damage) throws {
        switch damage {
        case .deleted: try FileManager.default.removeItem(at: file)
        case .truncated: try FileHandle(forWritingTo: file).truncate(atOffset: 40)
        case .zeroed:
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as! Int
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: Data(count: size))  // in place, as a disk that lost its pages
            try handle.close()
        }
    }

    func history(_ device: CommandRunner) throws -> String { try device.output(["cloud", "status"]) }

    @Test(arguments: Damage.allCases)
    func aDamagedOwnLogIsCoveredByABaselineAndNoDeviceWaits(_ kind: Damage) throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "One"])
        #expect(try b.itemNames() == ["One"])
        try a.output(["item", "add", "Two"])
        try damage(log(2, of: try peerID(a)), kind)
        // b waits for (or refuses) a's log 2.
        #expect(try b.itemNames() == ["One"])
        // A deletion changes a's folder: any sync round finds it; damage in place is found by the
        // full audit, which `cloud verify` runs.
        let found = kind == .deleted ? try a.run(["cloud", "sync"]) : try a.run(["cloud", "verify"])
        #expect(
            found.stderr.contains("log 2:") && found.stderr.contains("published this device's data as baseline"),
            "\(found.stderr)")
        #expect(try b.itemNames() == ["One", "Two"], "b no longer waits")
        #expect(try history(a).contains("historyRepublished"))
        // Said once: the next sync finds nothing more to say.
        #expect(!(try a.run(["cloud", "sync"]).stderr.contains("not whole")))
        #expect(
            FileManager.default.fileExists(atPath: log(2, of: try peerID(a)).path) == (kind != .deleted),
            "a published name is never written again")
    }

    @Test(arguments: Damage.allCases)
    func aDamagedOwnBaselineIsRepublishedForDevicesThatJoinLater(_ kind: Damage) throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        for name in ["One", "Two", "Three"] { try a.output(["item", "add", name]) }
        // The baseline covers the logs, which it removes.
        try a.output(["cloud", "baseline", "--grace-hours", "0"])
        let baselines = epoch.appendingPathComponent("baselines/\(try peerID(a))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: baselines.path) == ["0000000001.gdbase"])
        try damage(baselines.appendingPathComponent("0000000001.gdbase"), kind)
        let found = kind == .deleted ? try a.run(["cloud", "sync"]) : try a.run(["cloud", "verify"])
        #expect(found.stderr.contains("baseline 1:"), "\(found.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: baselines.path).sorted().last == "0000000002.gdbase",
            "a new name, never the old one again")
        let c = device("c")
        try c.output(["cloud", "enable"])
        #expect(try c.itemNames() == ["One", "Three", "Two"])
    }

    @Test(arguments: Damage.allCases)
    func aDeviceWhoseStoreLostItsLastSaveGoesOnAndGetsItBack(_ kind: Damage) throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "One"])
        let store = directory.file("devices/a/ubiquity/default/GroceryDude/store.sqlite")
        let backup = directory.file("backup.sqlite")
        try FileManager.default.copyItem(at: store, to: backup)
        try a.output(["item", "add", "Two"])
        #expect(try b.itemNames() == ["One", "Two"], "b applied a's log 2")
        // a's log 2 is damaged in the cloud folder, and a's store is restored from before it.
        try damage(log(2, of: try peerID(a)), kind)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
        try FileManager.default.copyItem(at: backup, to: store)

        let added = try a.run(["item", "add", "Three"])
        #expect(added.status == 0, "the device is not stuck: \(added.stderr)")
        #expect(
            added.stderr.contains("own log 2")
                && added.stderr.contains("lost on this device unless another device applied them"), "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: log(3, of: try peerID(a)).path), "numbered after the lost log")
        #expect(try history(a).contains("historyLost"))
        // b applied log 2: it answers with a baseline, which brings Two back to a.
        #expect(try b.itemNames() == ["One", "Three", "Two"])
        #expect(try a.itemNames() == ["One", "Three", "Two"])
        // Nothing else refuses: a baseline and a rebuild work.
        try a.output(["cloud", "baseline"])
        try a.output(["cloud", "rebuild"])
        #expect(try a.itemNames() == ["One", "Three", "Two"])
    }
}
