import Foundation
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

        for peer in [x, y, x] { try peer.output(["--list", "Trip", "cloud", "sync"]) }
        #expect(try x.itemNames(["--list", "Trip"]) == ["New1"], "nothing of the old content came back")
        #expect(try y.itemNames(["--list", "Trip"]) == ["New1"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/devices/x/ubiquity/default")
            .filter { $0.hasPrefix("Trip-") }
            .flatMap {
                (try? FileManager.default.contentsOfDirectory(
                    atPath: directory.path + "/devices/x/ubiquity/default/\($0)/kept")) ?? []
            }
        #expect(kept.contains { $0.hasPrefix("epoch-1-") }, "x keeps its old data aside: \(kept)")
        #expect(try x.output(["--list", "Trip", "cloud", "status"]).contains("contentRemoved"))
        for peer in [x, y] {
            let verified = try peer.run(["--list", "Trip", "cloud", "verify"])
            #expect(
                verified.status == 0 && verified.stdout.contains("Agrees with"), "\(peer.device): \(verified.stdout)")
        }
    }
}
