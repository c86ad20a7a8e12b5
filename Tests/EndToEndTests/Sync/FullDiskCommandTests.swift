import Foundation
import TestSupport
import Testing

/// A full disk changes nothing half-way: reads work, no store is moved aside unless its
/// replacement is in place, and no raw SQLite message reaches the user. On a real small disk
/// (a tmpfs, which takes root: CI runs as root), filled to several levels during each command.
@Suite("A full disk, from the command line")
struct FullDiskCommandTests {
    /// Bytes left on the disk: none, and amounts where a command's writes fail part of the way.
    static let levels = [0, 100 << 10, 250 << 10, 400 << 10, 600 << 10]

    func device(on disk: SmallDisk) -> CommandRunner {
        // The shipped default data: a store large enough that its copies do not fit.
        CommandRunner(dataDirectory: disk.path, device: "a")
    }

    /// A device with cloud sync on and an item of its own, on a small disk of 8 MiB.
    func syncingDevice() throws -> (SmallDisk, CommandRunner) {
        let disk = try #require(SmallDisk(bytes: 8 << 20), Comment(rawValue: SmallDisk.needsRoot))
        let a = device(on: disk)
        try a.output(["cloud", "enable"])
        try a.output(["item", "add", "Mine"])
        return (disk, a)
    }

    func storeFolder(_ disk: SmallDisk) -> URL {
        disk.url.appendingPathComponent("devices/a/ubiquity/default/GroceryDude")
    }

    @Test func aRebuildOnAFullDiskChangesNothing() throws {
        let (disk, a) = try syncingDevice()
        let before = try a.itemNames()
        for leaving in Self.levels {
            try disk.fill(leaving: leaving)
            let rebuilt = try a.run(["cloud", "rebuild"])
            try disk.empty()
            let kept =
                (try? FileManager.default.contentsOfDirectory(
                    atPath: storeFolder(disk).appendingPathComponent("kept").path)) ?? []
            if rebuilt.status == 0 {
                #expect(
                    kept.contains { $0.hasPrefix("before-rebuild-") && $0.hasSuffix(".sqlite") },
                    "\(leaving): the old store is kept")
            } else {
                #expect(rebuilt.stderr.contains("is full: nothing was changed"), "\(leaving): \(rebuilt.stderr)")
                #expect(kept.isEmpty, "\(leaving): nothing was moved aside: \(kept)")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: storeFolder(disk).path).filter {
                    $0.hasPrefix("rebuilding")
                }
                #expect(leftovers.isEmpty, "\(leaving): the unfinished store is removed: \(leftovers)")
            }
            #expect(!rebuilt.stderr.contains("SQLite error"), "\(leaving): \(rebuilt.stderr)")
            #expect(try a.itemNames() == before, "\(leaving): the device holds what it held")
        }
    }

    @Test func disablingOnAFullDiskChangesNothing() throws {
        let (disk, a) = try syncingDevice()
        let before = try a.itemNames()
        var refused = 0
        for leaving in Self.levels {
            try disk.fill(leaving: leaving)
            let disabled = try a.run(["cloud", "disable"])
            try disk.empty()
            #expect(!disabled.stderr.contains("SQLite error"), "\(leaving): \(disabled.stderr)")
            if disabled.status == 0 { break }
            refused += 1
            #expect(disabled.stderr.contains("is full: nothing was changed"), "\(leaving): \(disabled.stderr)")
            #expect(
                try a.output(["cloud", "status"]).contains("Cloud sync:          yes"), "\(leaving): still syncing")
            let local = try FileManager.default.contentsOfDirectory(
                atPath: disk.url.appendingPathComponent("devices/a/local").path)
            #expect(
                !local.contains("GroceryDude.sqlite") && !local.contains { $0.hasSuffix(".tmp") },
                "\(leaving): no copy is left: \(local)")
            #expect(try a.itemNames() == before)
        }
        #expect(refused > 0, "the disk was full enough to refuse at least once")
    }

    @Test func readingWorksOnAFullDisk() throws {
        let (disk, a) = try syncingDevice()
        var before = try a.itemNames()
        for leaving in Self.levels {
            try disk.fill(leaving: leaving)
            #expect(try a.itemNames() == before, "\(leaving)")
            let listed = try a.run(["item", "ls"])
            #expect(listed.status == 0 && listed.stdout.contains("Mine"), "\(leaving): \(listed.stderr)")
            let added = try a.run(["item", "add", "Refused \(leaving)"])
            #expect(
                added.status == 0 || added.stderr.contains("is full: nothing was changed"),
                "\(leaving): \(added.stderr)")
            if added.status == 0 { before = (before + ["Refused \(leaving)"]).sorted() }
            #expect(!added.stderr.contains("SQLite error"), "\(leaving): \(added.stderr)")
        }
    }
}
