import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

/// The cloud folder has an identity: a path that lacks the folder IDs a device remembers (a
/// share that is not mounted, so an empty mount point; another share) is never written into,
/// and the device says why wherever it reports its state.
@Suite("The cloud folder's identity")
struct CloudFolderIdentityTests {
    let directory = TemporaryDirectory("folder-identity")
    var share: URL { directory.file("share") }
    var mounted: URL { directory.file("mounted") }
    var empty: URL { directory.file("mount-point") }

    func device(_ name: String) -> CommandRunner {
        .device(name, in: directory.path, cloud: share.path)
    }

    /// Points the share (a symbolic link, as a mount point is a path) at `folder`.
    func mount(_ folder: URL) throws {
        try? FileManager.default.removeItem(at: share)
        try FileManager.default.createSymbolicLink(at: share, withDestinationURL: folder)
    }

    /// Every file under `folder`, relative to it.
    func files(in folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder.path)
        return (walker?.allObjects as? [String] ?? []).sorted()
    }

    func status(_ device: CommandRunner) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try device.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
    }

    init() throws {
        try FileManager.default.createDirectory(at: mounted, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try mount(mounted)
    }

    @Test func anEmptyMountPointIsNeverWrittenIntoAndDevicesConvergeOnceTheShareIsBack() throws {
        let (a, b, c) = (device("a"), device("b"), device("c"))
        for peer in [a, b, c] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "Before"])
        #expect(try c.itemNames() == ["Before"])

        try mount(empty)  // after a reboot, before the share is mounted
        for (peer, name) in [(a, "From A"), (b, "From B"), (c, "From C")] {
            let added = try peer.run(["item", "add", name])
            #expect(added.status == 0, "the save is kept on the device: \(added.stderr)")
            #expect(
                added.stderr.contains("is not the one this device synced with (is the share mounted?)"),
                "\(added.stderr)")
        }
        #expect(files(in: empty).isEmpty, "nothing was written into the mount point: \(files(in: empty))")
        let sync = try a.run(["cloud", "sync"])
        #expect(sync.status != 0)
        #expect(sync.stderr.contains("is not the one this device synced with"), "\(sync.stderr)")
        let cloud = try status(b)  // on its fallback store: it set up nothing yet
        #expect(cloud["offline"] as? Bool == true)
        #expect(
            (cloud["offlineReason"] as? String)?.contains(
                "is not the one this device synced with (is the share mounted?)") == true)
        #expect(try b.run(["cloud", "verify"]).status != 0)
        #expect(files(in: empty).isEmpty, "nor by a sync, a status or a verify: \(files(in: empty))")

        try mount(mounted)  // the share is back: the saves made meanwhile go out, and all agree
        for peer in [a, b, c, a, b] { try peer.output(["cloud", "sync"]) }
        let everything = ["Before", "From A", "From B", "From C"]
        for peer in [a, b, c] { #expect(try peer.itemNames() == everything) }
        #expect(try status(a)["offline"] as? Bool == false)
    }

    @Test func aFolderOfAnEarlierBuildIsAdoptedOnlyWithTheDevicesOwnLogsInIt() throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "Tea"])
        #expect(try b.itemNames() == ["Tea"])
        // As an earlier build left them: no markers in the folder, no IDs remembered.
        try FileManager.default.removeItem(at: mounted.appendingPathComponent("default/folder-ids"))
        for name in ["a", "b"] { try forgetFolderIDs(device: name) }

        try mount(empty)
        let added = try a.run(["item", "add", "Coffee"])
        #expect(
            added.status == 0 && added.stderr.contains("none of the logs this device published or applied"),
            "\(added.stderr)")
        #expect(files(in: empty).isEmpty, "the empty folder is not taken for the old one: \(files(in: empty))")

        try mount(mounted)
        try a.output(["cloud", "sync"])
        #expect(try b.itemNames() == ["Coffee", "Tea"])
        let markers = files(in: mounted.appendingPathComponent("default/folder-ids"))
        #expect(markers.count == 2, "both devices marked the folder they recognised: \(markers)")
        // The settings remember the folder's ID now.
        let settings = try String(contentsOf: directory.file("devices/a/settings.json"), encoding: .utf8)
        #expect(settings.contains("cloudFolderIDs"))
    }

    @Test func adoptingAnotherFolderIsAnExplicitStepThatPublishesTheDevicesData() throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try a.output(["item", "add", "Rice"])
        try b.output(["cloud", "sync"])

        try mount(empty)  // a new share, on purpose
        let asked = try a.run(["cloud", "adopt"])
        #expect(
            asked.status != 0 && asked.stderr.contains("pass --yes"),
            "without a terminal it asks for --yes: \(asked.stderr)")
        #expect(files(in: empty).isEmpty)
        let adopted = try a.output(["cloud", "adopt", "--yes"])
        #expect(adopted.contains("published this device's data as baseline"), "\(adopted)")
        #expect(try a.output(["cloud", "adopt", "--yes"]).contains("already this device's cloud folder"))
        #expect(try a.run(["cloud", "sync"]).status == 0)
        // b still remembers the other folder: it does not write here until it adopts this one too.
        #expect(try b.run(["cloud", "sync"]).status != 0)
        try b.output(["cloud", "adopt", "--yes"])
        let fresh = device("c")
        try fresh.output(["cloud", "enable"])
        #expect(try fresh.itemNames() == ["Rice"])
        #expect(try a.output(["cloud", "status"]).contains("cloudFolderAdopted"))
    }

    @Test func aStartOverWaitsForDevicesOfAnEarlierBuild() throws {
        let (a, b) = (device("a"), device("b"))
        for peer in [a, b] { try peer.output(["cloud", "enable"]) }
        try b.output(["item", "add", "From B"])
        let bPeer = try status(b)["peerID"] as! String
        // b runs an earlier build: it wrote no marker (and would not read a start over's new name).
        try FileManager.default.removeItem(at: mounted.appendingPathComponent("default/folder-ids/\(bPeer).gdfolder"))
        let refused = try a.run(["cloud", "start-over", "--yes"])
        #expect(
            refused.status != 0
                && refused.stderr.contains("device \"b\" (peer \(bPeer)) published here with an earlier build"),
            "\(refused.stderr)")
        #expect(try a.itemNames() == ["From B"], "nothing was started over")
        try a.output(["cloud", "start-over", "--yes", "--despite-earlier-builds"])
        #expect(try a.itemNames() == [])
        let markers = try FileManager.default.contentsOfDirectory(
            atPath: mounted.appendingPathComponent("default/GroceryDude/epochs").path)
        let aPeer = try status(a)["peerID"] as! String
        #expect(markers == ["2-\(aPeer).gdepoch"], "a marker of the device's own: \(markers)")
    }

    /// A file under this device's marker name that another wrote (it says another peer) does not
    /// make an empty folder this device's, even with the right folder ID in it.
    @Test func aMarkerUnderThisDevicesNameWrittenByAnotherDoesNotCount() throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Tea"])
        let peer = try status(a)["peerID"] as! String
        let markers = mounted.appendingPathComponent("default/folder-ids")
        let genuine = try String(contentsOf: markers.appendingPathComponent("\(peer).gdfolder"), encoding: .utf8)
        let folderID = try #require(
            genuine.split(separator: "\n")[1].split(separator: "\"").drop { $0 != "folderID" }.dropFirst(2).first)
        try mount(empty)
        let forgedFolder = empty.appendingPathComponent("default/folder-ids")
        try FileManager.default.createDirectory(at: forgedFolder, withIntermediateDirectories: true)
        let body = #"{"device":"x","folderID":"\#(folderID)","peer":"0badc0de","written":"2026-01-01T00:00:00Z"}"#
        let forged = "GDFOLDER 1\n\(body)\n\(String(CRC32.checksum(Data(body.utf8)), radix: 16))\n"
        try Data(forged.utf8).write(to: forgedFolder.appendingPathComponent("\(peer).gdfolder"))
        let added = try a.run(["item", "add", "Coffee"])
        #expect(added.stderr.contains("is not the one this device synced with"), "\(added.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: empty.appendingPathComponent("default/GroceryDude").path),
            "nothing written")
    }

    /// What an earlier build had: no folder IDs in the settings nor in the store.
    func forgetFolderIDs(device name: String) throws {
        let settingsURL = directory.file("devices/\(name)/settings.json")
        var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: settingsURL)) as! [String: Any]
        settings["cloudFolderIDs"] = nil
        try JSONSerialization.data(withJSONObject: settings).write(to: settingsURL)
        let store = try DatabaseQueue(
            path: directory.file("devices/\(name)/ubiquity/default/GroceryDude/store.sqlite").path)
        try store.write { db in try db.execute(sql: "DELETE FROM ubiquity_metadata WHERE key = 'cloudFolderIDs'") }
        try store.close()
    }
}
