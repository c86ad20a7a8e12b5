import Foundation
import TestSupport
import Testing

/// What commands say is what happened, and says what to do.
@Suite("Messages that are true")
struct TruthfulMessagesTests {
    let directory = TemporaryDirectory("messages")

    func device(_ name: String, cloud: String? = nil) -> CommandRunner {
        var environment = CommandRunner.withoutDefaultData
        if let cloud { environment["GROCERY_DUDE_CLOUD"] = cloud }
        return CommandRunner(dataDirectory: directory.path, device: name, environment: environment)
    }

    @Test func aCloudFolderThatDoesNotExistIsNamedWithWhatToDo() throws {
        let missing = directory.url.appendingPathComponent("not-mounted").path
        let a = device("a", cloud: missing)
        let enabled = try a.output(["cloud", "enable"])
        #expect(enabled.contains("\(missing) does not exist: create it (mkdir -p \(missing)) or mount"), "\(enabled)")
        try a.output(["item", "add", "Kept meanwhile"])
        let status = try a.output(["cloud", "status"])
        #expect(status.contains("does not exist"), "\(status)")
        let sync = try a.run(["cloud", "sync"])
        #expect(sync.status != 0)
        #expect(
            sync.stderr.contains("\(missing) does not exist") && !sync.stderr.contains("cloud online"), "\(sync.stderr)"
        )
        let online = try a.output(["cloud", "online"])
        #expect(online.contains("does not exist") && !online.contains("disabled"), "\(online)")
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: true)
        try a.output(["cloud", "sync"])
        try device("b", cloud: missing).output(["cloud", "enable"])
        #expect(try device("b", cloud: missing).items().map { $0["name"] as? String } == ["Kept meanwhile"])
    }

    @Test func aNoteAtModelVersionOneIsRefusedAndAddsNothing() throws {
        let old = device("old")
        let added = try old.run(["--model-version", "1", "item", "add", "Tea", "--note", "green"])
        #expect(added.status != 0 && added.stderr.contains("model version 1, which has no note"), "\(added.stderr)")
        #expect(try old.items(["--model-version", "1"]).isEmpty)
        try old.output(["--model-version", "1", "item", "add", "Tea"])
        let edited = try old.run(["--model-version", "1", "item", "edit", "Tea", "--note", "green"])
        #expect(edited.status != 0 && edited.stderr.contains("no note"), "\(edited.stderr)")
    }

    @Test func helpNamesOnlyWhatTheCommandDoes() throws {
        let a = device("a")
        let export = try a.output(["export", "--help"])
        #expect(export.contains("(values: json, csv, csv-aisles)") && !export.contains("coredata"), "\(export)")
        #expect(try a.run(["export", "--format", "xml"]).status != 0)
        let rebuild = try a.output(["cloud", "rebuild", "--help"])
        #expect(rebuild.contains("kept/") && !rebuild.contains("store-before-rebuild.sqlite"), "\(rebuild)")
    }

    @Test func goingOnlineAfterAPeerStartedOverSaysTheChangesWereKeptNotExported() throws {
        let a = device("a")
        let b = device("b")
        try a.output(["cloud", "enable"])
        try b.output(["cloud", "enable"])
        try a.output(["cloud", "sync"])  // on the cloud store of epoch 1, not its fallback
        try a.output(["cloud", "offline"])
        try a.output(["item", "add", "Made while away"])
        try b.output(["cloud", "start-over", "--yes"])
        let online = try a.output(["cloud", "online"])
        #expect(!online.contains("nothing made on this device waits"), "\(online)")
        #expect(online.contains("kept") && online.contains("merge-kept"), "\(online)")
    }

    /// A full disk said "SQLite error 10: disk I/O error - while executing `PRAGMA cache_size`",
    /// which reads as a failing disk or a damaged store. On a real disk of 8 MiB (tmpfs; needs
    /// root): the command says the disk is full and where, changes nothing, and once there is
    /// room the device goes on with everything it had.
    @Test func aFullDiskIsCalledFullAndNothingIsHalfDone() throws {
        let disk = try #require(SmallDisk(bytes: 8 << 20), Comment(rawValue: SmallDisk.needsRoot))
        let a = CommandRunner(dataDirectory: disk.path, device: "a", environment: CommandRunner.withoutDefaultData)
        try a.output(["item", "add", "Before"])
        for leaving in [40 * 1024, 0] {
            try disk.fill(leaving: leaving)
            let added = try a.run(["item", "add", "Refused"])
            #expect(added.status != 0)
            #expect(
                added.stderr.contains("the disk that holds \(disk.path)/devices/a/local is full: nothing was changed"),
                "\(added.stderr)")
            #expect(!added.stderr.contains("SQLite error"), "\(added.stderr)")
        }
        // A listing writes nothing: it works while the disk has room for the write-ahead log's
        // index (32 KiB), and without it too (the command keeps the index in its memory).
        for leaving in [40 * 1024, 0] {
            try disk.fill(leaving: leaving)
            #expect(try a.items().map { $0["name"] as! String } == ["Before"])
        }
        try disk.empty()
        try a.output(["item", "add", "After"])
        #expect(try a.items().map { $0["name"] as! String } == ["After", "Before"])
    }
}
