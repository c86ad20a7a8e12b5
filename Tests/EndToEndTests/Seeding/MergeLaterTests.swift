import Foundation
import TestSupport
import Testing

/// The book's "Don't Merge", then merging later by turning sync off and on again: the local
/// data stays the user's and visible, and Merge brings it in.
@Suite("Merging later")
struct MergeLaterTests {
    let directory = TemporaryDirectory("merge-later")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    @Test func dontMergeThenTurningSyncOffAndOnMergesTheLocalData() throws {
        let a = device("a")
        let b = device("b")
        try b.output(["cloud", "enable"])
        try b.output(["item", "add", "From the cloud"])
        try a.output(["item", "add", "Made before sync"])
        try a.output(["item", "list", "Made before sync"])

        try a.output(["cloud", "enable", "--no-merge"])
        #expect(try a.itemNames() == ["From the cloud"])
        let reminder = try a.output(["cloud", "enable"])
        #expect(reminder.contains("local data (1 item) is not merged"), "\(reminder)")

        // Turning sync off goes back to the data the user chose not to merge, as it was.
        let off = try a.output(["cloud", "disable"])
        #expect(off.contains("back to this device's own local data"), "\(off)")
        #expect(try a.itemNames() == ["Made before sync"])
        #expect(try a.items().first?["listed"] as? Bool == true)
        #expect(
            !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("devices/a/local/kept").path),
            "nothing is left only in a kept file")

        // On again without a choice, from a script: it asks (and changes nothing).
        let unanswered = try a.run(["cloud", "enable"])
        #expect(unanswered.status != 0 && unanswered.stderr.contains("--merge"))
        try a.output(["cloud", "enable", "--merge"])
        #expect(try a.itemNames() == ["From the cloud", "Made before sync"])
        try b.output(["cloud", "sync"])
        #expect(try b.itemNames() == ["From the cloud", "Made before sync"])
    }

    @Test func mergeRightAfterDontMergeMergesInsteadOfSayingSyncIsOn() throws {
        let a = device("a")
        try device("b").output(["cloud", "enable"])
        try device("b").output(["item", "add", "From the cloud"])
        try a.output(["item", "add", "Mine"])
        try a.output(["cloud", "enable", "--no-merge"])
        let merged = try a.output(["cloud", "enable", "--merge"])
        #expect(merged.contains("Merged"), "\(merged)")
        #expect(try a.itemNames() == ["From the cloud", "Mine"])
        // Nothing left to merge: a second --merge says so.
        #expect(try a.output(["cloud", "enable", "--merge"]).contains("already enabled"))
    }

    @Test func turningSyncOffWithoutEarlierLocalDataKeepsTheCloudsData() throws {
        let a = device("a")
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Synced"])
        let off = try a.output(["cloud", "disable"])
        #expect(off.contains("1 item now in this device's local store"), "\(off)")
        #expect(try a.itemNames() == ["Synced"])
    }
}
