import Foundation
import GRDB
import TestSupport
import Testing

/// A list started over while another device runs `cloud watch` ends the same on both devices:
/// nothing removed comes back, and the watching device keeps its old data aside, journaled.
@Suite("A list started over while a watcher runs")
struct NamedListsStartOverTests {
    let directory = TemporaryDirectory("lists-start-over")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    @Test func theIssuesSequenceConvergesAndNothingRemovedComesBack() throws {
        let (x, y) = (device("x"), device("y"))
        for peer in [x, y] { try peer.output(["cloud", "enable"]) }
        for peer in [x, y] { try peer.output(["item", "ls"]) }
        let watch = try x.start(["cloud", "watch", "--json"])
        #expect(
            watch.waitForLine { $0.contains(#""event": "store""#) && $0.contains(#""using_local_storage": false"#) }
                != nil,
            "\(watch.stdoutLines) \(watch.stderrLines)")

        try y.output(["lists", "new", "Trip"])
        try y.output(["--list", "Trip", "item", "add", "Old1"])
        try x.output(["--list", "Trip", "item", "add", "OldX"])
        try y.output(["--list", "Trip", "cloud", "start-over", "--yes"])
        try y.output(["--list", "Trip", "item", "add", "New1"])
        let late = try x.run(["--list", "Trip", "item", "add", "NewX"])
        #expect(late.status == 0, "the save is kept on the device: \(late.stderr)")
        _ = watch.stop()

        // Two timings are right, and the late command says which one happened. The watcher holds
        // the device and looks at Trip every two seconds: if it has not yet seen the start over,
        // the command cannot take the store over from it, saves into epoch 1 and says the change
        // is kept on this device (it is set aside with the rest of epoch 1); if it has, NewX is a
        // save of epoch 2 and reaches both devices. Either way nothing of epoch 1 comes back.
        let keptOnDevice = late.stderr.contains("the change is kept on this device")
        let expected = keptOnDevice ? ["New1"] : ["New1", "NewX"]
        for peer in [x, y, x] { try peer.output(["--list", "Trip", "cloud", "sync"]) }
        #expect(
            try x.itemNames(["--list", "Trip"]) == expected, "nothing of the old content came back: \(late.stderr)")
        #expect(try y.itemNames(["--list", "Trip"]) == expected)
        let keptFolders = try FileManager.default.contentsOfDirectory(
            atPath: directory.path + "/devices/x/ubiquity/default"
        )
        .filter { $0.hasPrefix("Trip-") }
        .map { directory.path + "/devices/x/ubiquity/default/\($0)/kept" }
        let kept = keptFolders.flatMap {
            ((try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []).map { "\($0)" }
        }
        #expect(kept.contains { $0.hasPrefix("epoch-1-") }, "x keeps its old data aside: \(kept)")
        if keptOnDevice {
            let store = try #require(
                keptFolders.lazy.compactMap { folder in
                    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                        .first { $0.hasPrefix("epoch-1-") && $0.hasSuffix(".sqlite") }
                        .map { folder + "/" + $0 }
                }.first)
            var readOnly = Configuration()
            readOnly.readonly = true
            let names = try DatabaseQueue(path: store, configuration: readOnly).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name")
            }
            #expect(
                names.contains("NewX"), "the change said to be kept on the device is in the store set aside: \(names)")
        }
        #expect(try x.output(["--list", "Trip", "cloud", "status"]).contains("contentRemoved"))
        for peer in [x, y] {
            let verified = try peer.run(["--list", "Trip", "cloud", "verify"])
            #expect(
                verified.status == 0 && verified.stdout.contains("Agrees with"), "\(peer.device): \(verified.stdout)")
        }
    }
}
