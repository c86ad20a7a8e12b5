import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A peer of the test model: its own store and its own replica of the cloud folder.
final class TestPeer {
    let name: String
    let directory: TemporaryDirectory
    let cloud: URL
    let clock: TestClock
    let ids: SequentialIDs
    /// The model and its version: ``TestModel``'s version 2 unless a test gives its own.
    let model: (definition: ModelDefinition, version: Int)
    var store: ObjectStore
    var sync: CloudSync

    init(
        name: String, prefix: String, cloud: URL, clock: TestClock,
        model: (definition: ModelDefinition, version: Int) = (TestModel.definition, 2)
    ) throws {
        self.name = name
        self.directory = TemporaryDirectory("peer-\(name)")
        self.cloud = cloud
        self.clock = clock
        self.ids = SequentialIDs(prefix: prefix)
        self.model = model
        (store, sync) = try Self.open(
            directory: directory, cloud: cloud, name: name, clock: clock, ids: ids, model: model)
    }

    static func open(
        directory: TemporaryDirectory, cloud: URL, name: String, clock: TestClock, ids: SequentialIDs,
        model: (definition: ModelDefinition, version: Int)
    ) throws -> (ObjectStore, CloudSync) {
        let store = try ObjectStore(
            path: directory.file("store.sqlite").path, model: model.definition, version: model.version,
            peer: "peer-\(name)", clock: clock, ids: ids)
        let layout = try CloudLayout(cloud: cloud, account: "default", storeName: "Test", modelVersion: model.version)
        return (store, CloudSync(store: store, layout: layout, device: name))
    }

    /// Closes and reopens the store, as a process restart would.
    func restart() throws {
        (store, sync) = try Self.open(
            directory: directory, cloud: cloud, name: name, clock: clock, ids: ids, model: model)
    }

    /// Every row of every table of the model, as text: what must be equal on converged peers.
    /// Every row's values, without the engine's column of property clocks.
    func contents() throws -> [String] {
        try store.read { db in
            try store.schema.entities.map(\.table).flatMap { table in
                let columns = try db.columns(in: table).map(\.name).filter { $0 != EngineTables.clockColumn }
                return try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY id")
                    .map { "\(table): \($0)" }
            }
        }
    }

    func ids(of table: String) throws -> [GlobalID] {
        try store.read { db in try GlobalID.fetchAll(db, sql: "SELECT id FROM \(table) ORDER BY id") }
    }

    /// Saves a note, then lets a write outside the save API see a peer's reading an hour after
    /// the save's (trusted: it moves the device's clock), as an import does. Returns both readings.
    func saveAndSeeAReadingAnHourLater(counter: Int32) throws -> (saved: HLC, seen: HLC) {
        try store.save(author: "t") { _ = try $0.insert("Note", values: ["title": .string("Milk")]) }
        let saved = try #require(try store.outbox().last?.clock)
        let seen = HLC(wall: saved.wall + 3_600_000, counter: counter, peer: "peer-b")
        try store.write { db in try LocalClock.observe(seen, now: clock.now(), peer: "peer-\(name)", db) }
        return (saved, seen)
    }
}

@Suite("Sync between peers through a cloud folder")
struct SyncTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    @Test func whatOnePeerSavesTheOtherImports() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        var notified: [ImportedChanges] = []
        b.sync.observeImports { notified.append($0) }

        let note = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        #expect(try a.sync.exportPending() == 1)
        #expect(try a.sync.pendingExports() == 0)
        #expect(try b.sync.pendingImports() == 1)
        let report = try b.sync.importPending()
        #expect(report.appliedLogs == 1)
        #expect(notified.count == 1)
        #expect(notified.first?.inserted == [ObjectID(entity: "Note", id: note)])
        #expect(try b.contents() == (try a.contents()))

        // Imported changes are not exported again.
        #expect(try b.sync.exportPending() == 0)
        // Importing again applies nothing.
        #expect(try b.sync.importPending().appliedLogs == 0)

        clock.advance(by: 1)
        _ = try b.store.save(author: "edit") { try $0.update("Note", id: note, values: ["count": .integer(3)]) }
        try b.sync.sync()
        try a.sync.sync()
        #expect(try a.contents() == (try b.contents()))
        clock.advance(by: 1)
        try a.store.save(author: "rm") { try $0.delete("Note", id: note) }
        try a.sync.sync()
        let deleted = try b.sync.sync()
        #expect(deleted.changes.deleted == [ObjectID(entity: "Note", id: note)])
        #expect(try b.ids(of: "note").isEmpty)
    }

    @Test func concurrentEditsConvergeByClockAndDeletesAreFinal() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let note = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try a.sync.sync()
        try b.sync.sync()

        clock.advance(by: 1)
        _ = try a.store.save(author: "a") {
            try $0.update("Note", id: note, values: ["title": .string("Oat milk"), "count": .integer(1)])
        }
        clock.advance(by: 1)
        _ = try b.store.save(author: "b") { try $0.update("Note", id: note, values: ["title": .string("Soy milk")]) }
        try a.sync.sync()
        try b.sync.sync()
        try a.sync.sync()
        #expect(try a.contents() == (try b.contents()))
        let title = try a.store.read { db in try String.fetchOne(db, sql: "SELECT title FROM note") }
        let count = try a.store.read { db in try Int.fetchOne(db, sql: "SELECT count FROM note") }
        #expect(title == "Soy milk", "the later edit of a property wins")
        #expect(count == 1, "properties merge one by one")

        // B deletes while A edits: the delete wins whatever the clocks say.
        try b.store.save(author: "rm") { try $0.delete("Note", id: note) }
        clock.advance(by: 10)
        _ = try a.store.save(author: "edit") { try $0.update("Note", id: note, values: ["count": .integer(9)]) }
        try a.sync.sync()
        try b.sync.sync()
        try a.sync.sync()
        #expect(try a.ids(of: "note").isEmpty && b.ids(of: "note").isEmpty)
    }

    @Test func aSkewedClockDoesNotWinForever() throws {
        let fast = TestClock(Date(timeIntervalSince1970: 1_800_000_000 + 3600))
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: fast)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let note = try a.store.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("From the future")])
        }
        try a.sync.sync()
        try b.sync.sync()
        // B's clock is an hour behind, but having seen A's change it edits after it.
        _ = try b.store.save(author: "edit") { try $0.update("Note", id: note, values: ["title": .string("Fixed")]) }
        try b.sync.sync()
        try a.sync.sync()
        #expect(try a.store.read { db in try String.fetchOne(db, sql: "SELECT title FROM note") } == "Fixed")
    }

    @Test func aMissingLogHoldsBackOnlyItsPeer() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        for title in ["one", "two", "three"] {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string(title)]) }
        }
        _ = try b.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("from b")]) }
        try a.sync.exportPending()
        try b.sync.exportPending()
        let second = a.sync.layout.logURL(peer: "peer-a", seq: 2)
        let aside = cloud.file("aside.gdlog")
        try FileManager.default.moveItem(at: second, to: aside)

        let report = try c.sync.importPending()
        #expect(report.waiting == ["waiting for log 2 from peer peer-a"])
        #expect(report.awaitedLogs == ["peer-a/\(CloudLayout.logName(2))"], "named as a folder watcher names it")
        #expect(report.appliedLogs == 2, "log 1 of a and log 1 of b")
        #expect(try c.sync.watermark(of: "peer-a") == 1)

        try FileManager.default.moveItem(at: aside, to: second)
        let filled = try c.sync.importPending()
        #expect(filled.appliedLogs == 2 && filled.awaitedLogs.isEmpty)
        #expect(try c.ids(of: "note").count == 4)
    }

    static let badFiles: [(String, @Sendable (Data) -> Data)] = [
        ("truncated", { $0.prefix($0.count - 10) }),
        (
            "damaged",
            {
                var data = $0
                data[data.count - 5] ^= 0x20
                return data
            }
        ),
        ("empty", { _ in Data() }),
        ("foreign", { _ in Data("GDLOG 1\n{\"storeName\":\"Other\"}\n{}".utf8) }),
        ("garbage", { _ in Data("hello".utf8) }),
    ]

    @Test(arguments: badFiles.map(\.0))
    func aBadLogIsSkippedReportedAndNeverHalfApplied(_ kind: String) throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "one") { try $0.insert("Note", values: ["title": .string("one")]) }
        _ = try a.store.save(author: "two") { try $0.insert("Note", values: ["title": .string("two")]) }
        try a.sync.exportPending()
        let url = a.sync.layout.logURL(peer: "peer-a", seq: 2)
        let good = try Data(contentsOf: url)
        let transform = Self.badFiles.first { $0.0 == kind }!.1
        try transform(good).write(to: url)

        let report = try b.sync.importPending()
        #expect(report.appliedLogs == 1)
        #expect(report.rejected.count == 1)
        #expect(report.rejected.first?.hasPrefix("log 2 from ") == true)
        #expect(report.rejected.first?.contains("peer peer-a") == true)
        #expect(try b.ids(of: "note").count == 1)

        // Once the file is whole again (a sync engine finished writing it), it is applied.
        try good.write(to: url)
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try b.contents() == (try a.contents()))
    }

    @Test func syncEnginesOwnFilesAreIgnored() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "one") { try $0.insert("Note", values: ["title": .string("one")]) }
        try a.sync.exportPending()
        let folder = a.sync.layout.peerFolder("peer-a")
        for name in [
            ".syncthing.0000000002.gdlog.tmp", "~syncthing~0000000002.gdlog.tmp",
            "0000000002.sync-conflict-20261121-120000-ABCDEFG.gdlog", ".0000000002.gdlog.partial", "notes.txt",
        ] {
            try Data("junk".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: a.sync.layout.logsFolder.appendingPathComponent(".stfolder"),
            withIntermediateDirectories: true)
        let report = try b.sync.importPending()
        #expect(report.appliedLogs == 1 && report.rejected.isEmpty && report.waiting.isEmpty)
    }

    @Test func aStoreNameWithAPeriodIsRefused() {
        #expect(throws: CloudError.invalidStoreName("Grocery.Dude")) {
            _ = try CloudLayout(cloud: cloud.url, account: "default", storeName: "Grocery.Dude", modelVersion: 2)
        }
    }
}

@Suite("Live sync")
struct LiveSyncTests {
    let cloud = TemporaryDirectory("live")

    @Test func aLogIsImportedAsSoonAsItLands() throws {
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let arrived = DispatchSemaphore(value: 0)
        let live = LiveSync(sync: b.sync)
        // A rescan only every minute: only inotify can deliver within the wait below.
        try live.start(rescanInterval: 60, onImport: { _ in arrived.signal() })
        defer { live.stop() }

        for round in 1...3 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Note \(round)")]) }
            try a.sync.exportPending()
            #expect(arrived.wait(timeout: .now() + 60) == .success, "round \(round)")
        }
        #expect(try b.contents() == (try a.contents()))
    }
}

@Suite("Baselines")
struct BaselineTests {
    let cloud = TemporaryDirectory("baselines")
    let clock = TestClock()

    @Test func aNewPeerLoadsABaselineInsteadOfReplayingCoveredLogs() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        var notes: [GlobalID] = []
        for index in 1...50 {
            notes.append(
                try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Note \(index)")]) })
            clock.advance(by: 0.01)
        }
        for note in notes.prefix(10) { try a.store.save(author: "rm") { try $0.delete("Note", id: note) } }
        try a.sync.exportPending()
        #expect(try b.sync.importPending().appliedLogs == 60)
        let baseline = try #require(try b.sync.writeBaseline())
        #expect(FileManager.default.fileExists(atPath: baseline.path))

        for index in 51...55 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Note \(index)")]) }
        }
        try a.sync.exportPending()

        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let report = try c.sync.importPending()
        #expect(report.loadedBaselines == 1)
        #expect(report.appliedLogs == 5, "only the logs after the baseline are replayed")
        #expect(try c.contents() == (try a.contents()))
        #expect(try c.sync.watermark(of: "peer-a") == 65)

        // A tombstone in the baseline is final for the new peer too.
        #expect(try c.ids(of: "note").count == 45)
    }

    @Test func coveredLogsAreRemovedByTheirWriterAndNewPeersStillCatchUp() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        for index in 1...20 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("N\(index)")]) }
        }
        _ = try #require(try a.sync.writeBaseline())
        #expect(try a.sync.pruneCoveredLogs(gracePeriod: 3600) == 0, "not before the grace period")
        #expect(try a.sync.pruneCoveredLogs(gracePeriod: 0) == 20)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("After")]) }
        try a.sync.exportPending()
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a") == [21])

        let d = try TestPeer(name: "d", prefix: "dddddddd", cloud: cloud.url, clock: clock)
        let report = try d.sync.importPending()
        #expect(report.waiting.isEmpty && report.loadedBaselines == 1 && report.appliedLogs == 1)
        #expect(try d.contents() == (try a.contents()))
    }

    @Test func loadingABaselineKeepsTheLoadersUnsyncedChanges() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let note = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Shared")]) }
        try a.sync.exportPending()
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try b.sync.importPending()
        clock.advance(by: 1)
        // B edits offline, and makes something new, while A writes a baseline of the old state.
        try b.store.save(author: "edit") { context in
            try context.update("Note", id: note, values: ["title": .string("Edited on b")])
            try context.insert("Folder", values: ["name": .string("Only on b")])
        }
        _ = try #require(try a.sync.writeBaseline())
        // B forgets it ever imported from A (as a peer that was away for long would be behind).
        try b.store.write { db in try db.execute(sql: "DELETE FROM ubiquity_peer_state") }
        let report = try b.sync.importPending()
        #expect(report.loadedBaselines == 1)
        let title = try b.store.read { db in try String.fetchOne(db, sql: "SELECT title FROM note") }
        #expect(title == "Edited on b")
        #expect(try b.ids(of: "folder").count == 1)
        try b.sync.exportPending()
        _ = try a.sync.importPending()
        #expect(try a.contents() == (try b.contents()))
    }
}

@Suite("The synced key-value store")
struct KeyValueStoreTests {
    let cloud = TemporaryDirectory("kv")

    @Test func theLastWriterWinsPerKeyOnEveryPeer() throws {
        let clock = TestClock()
        let a = KeyValueStore(cloud: cloud.url, account: "default", peer: "peer-a", format: "notes-kv", clock: clock)
        let b = KeyValueStore(cloud: cloud.url, account: "default", peer: "peer-b", format: "notes-kv", clock: clock)
        #expect(a.value(forKey: "SEEDED_DATA") == nil)
        try a.set("1", forKey: "SEEDED_DATA")
        #expect(b.value(forKey: "SEEDED_DATA") == "1")
        try b.set("kitchen", forKey: "owner")
        try a.set("phone", forKey: "owner")
        #expect(a.all() == ["SEEDED_DATA": "1", "owner": "phone"])
        #expect(b.all() == a.all())
        try b.set(nil, forKey: "owner")
        #expect(a.value(forKey: "owner") == nil)
        // Another account sees nothing of it.
        #expect(KeyValueStore(cloud: cloud.url, account: "work", peer: "peer-a", format: "notes-kv").all().isEmpty)
    }

    @Test func damagedAndForeignFilesAreSkipped() throws {
        let clock = TestClock()
        let a = KeyValueStore(cloud: cloud.url, account: "default", peer: "peer-a", format: "notes-kv", clock: clock)
        let b = KeyValueStore(cloud: cloud.url, account: "default", peer: "peer-b", format: "notes-kv", clock: clock)
        try a.set("1", forKey: "SEEDED_DATA")
        try b.set("kitchen", forKey: "owner")  // b's folder is read: what is skipped below is skipped for itself
        let folder = a.folder.appendingPathComponent("peer-b", isDirectory: true)
        try Data("{\"format\":\"notes-kv\",".utf8).write(to: folder.appendingPathComponent("90.gdkv"))
        // A file in b's folder claiming to be a's write, sane in every other way (a later
        // reading of a's, which would remove the key): only its folder gives it away.
        let later = HLC(wall: Int64(clock.now().timeIntervalSince1970 * 1000) + 60_000, counter: 0, peer: "peer-a")
            .description
        let forged = Data(
            #"{"format":"notes-kv","peer":"peer-a","number":91,"writes":{"SEEDED_DATA":{"clock":"\#(later)"}}}"#.utf8)
        try forged.write(to: folder.appendingPathComponent("91.gdkv"))
        #expect(a.all() == ["SEEDED_DATA": "1", "owner": "kitchen"])
        #expect(b.all() == a.all())
        // The same file in a's own folder is a's write, and applies: the check above is the folder's.
        try forged.write(to: a.folder.appendingPathComponent("peer-a").appendingPathComponent("91.gdkv"))
        #expect(a.all() == ["owner": "kitchen"])
    }
}

@Suite("Blobs")
struct BlobTests {
    let cloud = TemporaryDirectory("blobs")
    let clock = TestClock()

    @Test func largeValuesTravelAsContentAddressedFiles() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let photo = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try a.store.save(author: "add") { context in
            let attachment = try context.insert("Attachment", values: ["bytes": .data(photo)])
            try context.insert("Note", values: ["title": .string("With photo"), "attachment": .reference(attachment)])
        }
        try a.sync.exportPending()
        let log = try Data(contentsOf: a.sync.layout.logURL(peer: "peer-a", seq: 1))
        #expect(log.count < 5_000, "the log carries a hash, not the bytes")
        let blob = a.sync.blobURL(SHA256.hex(photo))
        #expect(try Data(contentsOf: blob) == photo)

        // Without its blob, the rest of the change is applied and the value waits.
        let aside = cloud.file("aside.blob")
        try FileManager.default.moveItem(at: blob, to: aside)
        let first = try b.sync.importPending()
        #expect(first.appliedLogs == 1)
        #expect(first.waiting.count == 1 && first.waiting[0].hasPrefix("waiting for blob"))
        #expect(try b.ids(of: "note").count == 1)
        let missing = try b.store.read { db in try Data?.fetchOne(db, sql: "SELECT bytes FROM attachment") }
        #expect(missing == nil)

        try FileManager.default.moveItem(at: aside, to: blob)
        let second = try b.sync.importPending()
        #expect(second.waiting.isEmpty)
        #expect(try b.store.read { db in try Data.fetchOne(db, sql: "SELECT bytes FROM attachment") } == photo)
        #expect(try b.contents() == (try a.contents()))
    }

    @Test func aDamagedBlobIsNotApplied() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let photo = Data(repeating: 7, count: 4096)
        _ = try a.store.save(author: "add") { try $0.insert("Attachment", values: ["bytes": .data(photo)]) }
        try a.sync.exportPending()
        try Data(repeating: 8, count: 4096).write(to: a.sync.blobURL(SHA256.hex(photo)))
        let report = try b.sync.importPending()
        #expect(report.waiting.count == 1)
        #expect(try b.store.read { db in try Data?.fetchOne(db, sql: "SELECT bytes FROM attachment") } == nil)
    }
}

@Suite("Exporting from several threads")
struct ConcurrentExportTests {
    @Test func concurrentExportersNeverNumberTwoSavesAlike() throws {
        let cloud = TemporaryDirectory("concurrent")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let store = a.store
        let exporters = [a.sync, CloudSync(store: a.store, layout: a.sync.layout, device: "a")]
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<25 {
                _ = try? store.save(author: "w\(worker)") {
                    try $0.insert("Note", values: ["title": .string("\(worker)-\(index)")])
                }
                _ = try? exporters[worker % 2].exportPending()
            }
        }
        try a.sync.exportPending()
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a") == Array(1...100))
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        #expect(try b.sync.importPending().appliedLogs == 100)
        #expect(try b.contents() == (try a.contents()))
    }
}

@Suite("Coalescing history")
struct CoalescingTests {
    @Test func aPeerWritesABaselineEveryIntervalOfLogs() throws {
        let cloud = TemporaryDirectory("coalesce")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        for index in 1...9 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("\(index)")]) }
        }
        try a.sync.exportPending()
        #expect(try a.sync.coalesceHistoryIfDue(interval: 10) == nil)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("10")]) }
        try a.sync.exportPending()
        #expect(try a.sync.coalesceHistoryIfDue(interval: 10, gracePeriod: 0) != nil)
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a").isEmpty, "covered logs removed after the grace period")
        #expect(try a.sync.coalesceHistoryIfDue(interval: 10) == nil, "not again until ten more logs")
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        #expect(try b.sync.importPending().loadedBaselines == 1)
        #expect(try b.contents() == (try a.contents()))
    }
}

@Suite("Importing from several places at once")
struct ConcurrentImportTests {
    @Test func twoImportersOfOneDeviceApplyEachLogOnceAndNeverMoveBack() throws {
        let cloud = TemporaryDirectory("concurrent-import")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let second = CloudSync(store: b.store, layout: b.sync.layout, device: "b")
        for index in 1...600 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("\(index)")]) }
        }
        try a.sync.exportPending()
        let importers = [b.sync, second]
        DispatchQueue.concurrentPerform(iterations: 2) { index in _ = try? importers[index].importPending() }
        #expect(try b.sync.watermark(of: "peer-a") == 600)
        #expect(try b.contents() == (try a.contents()))
    }
}

@Suite("A store lost and made again")
struct LostStoreTests {
    @Test(arguments: [false, true])
    func aPeerGetsItsOwnDataBackAndNumbersOnWithoutOverwriting(withBaseline: Bool) throws {
        let cloud = TemporaryDirectory("lost")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        for index in 1...5 {
            _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("A\(index)")]) }
        }
        try a.sync.exportPending()
        if withBaseline {
            _ = try #require(try a.sync.writeBaseline())
            #expect(try a.sync.pruneCoveredLogs(gracePeriod: 0) == 5)
        }
        _ = try b.sync.importPending()
        let before = try a.contents()

        // A's store file is gone (a disk replaced, a rebuild): same peer, empty store.
        try FileManager.default.removeItem(at: a.directory.url)
        try FileManager.default.createDirectory(at: a.directory.url, withIntermediateDirectories: true)
        try a.restart()
        clock.advance(by: 1)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("A6")]) }
        try a.sync.exportPending()

        #expect(a.sync.layout.sequenceNumbers(of: "peer-a").last == 6, "numbering goes on after the last log")
        #expect(try a.ids(of: "note").count == 6, "the store got its own notes back")
        #expect(try a.contents().count == before.count + 1)
        _ = try b.sync.importPending()
        #expect(try b.contents() == (try a.contents()))
    }

    @Test func aLogWrittenBeforeACrashIsNotWrittenAgainUnderANewNumber() throws {
        let cloud = TemporaryDirectory("crash-import")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("one")]) }
        try a.sync.exportPending()
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("two")]) }
        // As if the process died after writing log 2 but before recording it: write it by hand.
        let record = try #require(try a.store.outbox().first)
        let data = try LogFile.encode(record, layout: a.sync.layout, peer: "peer-a", device: "a", seq: 2)
        try data.write(to: a.sync.layout.logURL(peer: "peer-a", seq: 2))
        // The live watcher imports first this time, then the export comes.
        _ = try a.sync.importPending()
        #expect(try a.sync.exportPending() == 1)
        #expect(a.sync.layout.sequenceNumbers(of: "peer-a") == [1, 2], "no log 3 repeating log 2")
        #expect(try a.sync.pendingExports() == 0)
    }
}
