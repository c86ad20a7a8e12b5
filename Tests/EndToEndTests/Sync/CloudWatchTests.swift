import Foundation
import TestSupport
import Testing

/// `cloud watch`: the running app's background sync without its screen, as real processes.
@Suite("cloud watch")
struct CloudWatchTests {
    let directory = TemporaryDirectory("cloud-watch")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    var logsFolder: URL { directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs") }

    @Test func importsAsLogsArriveSaysWhatCameAndFollowsOtherTerminals() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        let watch = try phone.start(["cloud", "watch", "--json"])
        #expect(
            watch.waitForLine { $0.contains(#""event": "store""#) && $0.contains(#""using_local_storage": false"#) }
                != nil,
            "the watcher reaches the cloud store: \(watch.stdoutLines) \(watch.stderrLines)")

        // Another device's save is imported by the watcher, which says so on a line of its own.
        try kitchen.output(["item", "add", "Tea"])
        let imported = try #require(
            watch.waitForLine { $0.contains(#""event": "imported""#) },
            "\(watch.stdoutLines) \(watch.stderrLines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(imported.utf8)) as? [String: Any])
        #expect(
            object["devices"] as? [String] == ["kitchen"] && object["inserted"] as? Int == 1
                && object["changes"] as? Int == 1)
        #expect(object["at"] is String)

        // One watcher a device, as one app: the second is refused and the first goes on.
        let second = try phone.run(["cloud", "watch"])
        #expect(second.status != 0 && second.stderr.contains("open in another process"), "\(second.stderr)")
        #expect(watch.isRunning)

        // A file that is not a log is refused with a warning, and what comes after still arrives.
        let garbage = logsFolder.appendingPathComponent("0badpeer0000000000000000000000000")
        try FileManager.default.createDirectory(at: garbage, withIntermediateDirectories: true)
        try Data("not a log\n".utf8).write(to: garbage.appendingPathComponent("0000000001.gdlog"))
        let seen = watch.stdoutLines.count
        try kitchen.output(["item", "add", "Bread"])
        #expect(
            watch.waitForLine(after: seen) { $0.contains(#""event": "imported""#) && $0.contains("kitchen") } != nil,
            "\(watch.stdoutLines) \(watch.stderrLines)")
        #expect(
            watch.waitForLine(in: .standardError) { $0.contains("warning:") } != nil,
            "the refused file is told: \(watch.stderrLines)")

        // What needs the device to itself names the watcher holding it.
        let disable = try phone.run(["cloud", "disable"])
        #expect(disable.status != 0 && disable.stderr.contains("grocery-dude cloud watch (pid "), "\(disable.stderr)")
        #expect(disable.stderr.contains("is using this device; wait for it to end, or stop it"), "\(disable.stderr)")

        // Signed out from another terminal: the watcher moves to the local store and says so.
        let beforeSignOut = watch.stdoutLines.count
        let signedOut = try phone.run(["account", "sign-out"])
        #expect(signedOut.status == 0, "\(signedOut.stderr)")
        #expect(
            watch.waitForLine(after: beforeSignOut) { $0.contains(#""store": "local store""#) } != nil,
            "\(watch.stdoutLines) \(watch.stderrLines)")

        // SIGTERM ends it between two rounds, cleanly.
        #expect(watch.stop(SIGTERM) == 0)
    }

    /// A device that joins after the others removed their logs gets everything from baselines
    /// alone (no log applied): that import is told too.
    @Test func anImportFromBaselinesAloneIsTold() throws {
        let kitchen = device("kitchen")
        let newcomer = device("newcomer")
        try kitchen.output(["cloud", "enable"])
        try newcomer.output(["cloud", "enable"])
        try newcomer.output(["cloud", "sync"])  // set up, empty
        for name in ["Milk", "Tea", "Bread"] { try kitchen.output(["item", "add", name]) }
        #expect(try kitchen.output(["cloud", "baseline", "--grace-hours", "0"]).contains("removed 3 covered logs"))
        let watch = try newcomer.start(["cloud", "watch", "--json"])
        let line = try #require(
            watch.waitForLine { $0.contains(#""event": "imported""#) }, "\(watch.stdoutLines) \(watch.stderrLines)")
        #expect(line.contains(#""inserted": 3"#) && line.contains(#""devices": ["kitchen"]"#), "\(line)")
        #expect(watch.stop() == 0)
        #expect(try newcomer.itemNames() == ["Bread", "Milk", "Tea"])
    }

    /// As the app: a merge with the cloud that a crash interrupted is finished once the
    /// device is on its cloud store, nothing lost and nothing doubled.
    @Test func anInterruptedMergeIsFinished() throws {
        var csv = "kind,name,quantity,unit,homeLocation,shopLocation,listed,collected,note\n"
        for index in 0..<1200 { csv += "item,Item \(index),1,kg,Fridge,Dairy,true,false,\n" }
        let file = directory.url.appendingPathComponent("items.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let kitchen = device("kitchen")
        try kitchen.output(["import", file.path])
        let killed = try kitchen.run(["cloud", "enable", "--merge"], environment: ["GROCERY_DUDE_FAULT": "mid-seed"])
        #expect(killed.status != 0, "the merge was killed half-way")

        let watch = try kitchen.start(["cloud", "watch", "--json"])
        let merged = try #require(
            watch.waitForLine { $0.contains(#""event": "merge""#) },
            "\(watch.stdoutLines) \(watch.stderrLines)")
        #expect(merged.contains(#""finished": true"#) && merged.contains("merged with the cloud"), "\(merged)")
        // A clean exit, however long the round under way and the stores' closing take on a
        // machine busy with the other suites (once, in CI, past 10 seconds).
        #expect(watch.stop() == 0)
        let names = try kitchen.itemNames()
        #expect(names.count == 1200 && Set(names).count == 1200, "nothing lost, nothing doubled")
    }

    @Test func aDeviceWithoutCloudSyncHasNothingToWatch() throws {
        let alone = device("alone")
        try alone.output(["item", "add", "Salt"])
        let result = try alone.run(["cloud", "watch"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cloud sync is off on this device"), "\(result.stderr)")
    }
}
