import Foundation
import GRDB
import TestSupport
import Testing

/// The file docs/sync.md names is the store: what a command saved is in it, not only in SQLite's
/// write-ahead log beside it.
@Suite("The store file")
struct StoreFileTests {
    let directory = TemporaryDirectory("store-file")

    /// The names in a copy of `file` made without its `-wal` and `-shm` companions.
    func namesInACopy(of file: URL) throws -> [String] {
        let copy = directory.url.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        let queue = try DatabaseQueue(path: copy.path)
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") }
    }

    @Test(arguments: [false, true])
    func holdsWhatEveryCommandSaved(cloud: Bool) throws {
        let device = CommandRunner(
            dataDirectory: directory.path, device: "a", environment: CommandRunner.withoutDefaultData)
        if cloud { try device.output(["cloud", "enable"]) }
        try device.output(["item", "add", "Bread"])
        try device.output(["item", "add", "Milk"])
        // A command that fails closes the store too.
        #expect(try device.run(["item", "add", "Milk"]).status != 0)
        let file =
            cloud
            ? directory.url.appendingPathComponent("devices/a/ubiquity/default/GroceryDude/store.sqlite")
            : directory.url.appendingPathComponent("devices/a/local/GroceryDude.sqlite")
        #expect(try namesInACopy(of: file) == ["Bread", "Milk"])
        let wal = URL(fileURLWithPath: file.path + "-wal")
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
        #expect(walSize == 0, "the write-ahead log is emptied when the command ends")
    }
}
