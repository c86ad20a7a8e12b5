import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Epoch markers, and moving a store's content elsewhere.
@Suite("Epochs and transfers")
struct EpochAndTransferTests {
    let cloud = TemporaryDirectory("epochs")
    let clock = TestClock()

    @Test func theCurrentEpochIsTheNewestMarkerAndOthersFilesAreIgnored() throws {
        let layout = try CloudLayout(cloud: cloud.url, account: "default", storeName: "Test", modelVersion: 2)
        #expect(layout.currentEpoch() == 1)
        #expect(!layout.isSuperseded)
        #expect(try layout.startNextEpoch(peer: "p", device: "kitchen") == 2)
        #expect(layout.isSuperseded)
        #expect(try layout.inEpoch(2).isSuperseded == false)
        for junk in ["7.gdepoch.sync-conflict-20261121-1", ".3.gdepoch.tmp", "x.gdepoch", "~syncthing~4.gdepoch.tmp"] {
            try Data().write(to: layout.epochsFolder.appendingPathComponent(junk))
        }
        #expect(layout.currentEpoch() == 2)
        #expect(try layout.startNextEpoch(peer: "p", device: "kitchen") == 3)
    }

    @Test func nothingIsExportedIntoAnEpochAPeerHasLeft() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Old")]) }
        try a.sync.exportPending()
        _ = try a.sync.layout.startNextEpoch(peer: "peer-b", device: "b")
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Too late")]) }
        #expect(throws: CloudError.contentRemoved(epoch: 1, current: 2)) { try a.sync.exportPending() }
        #expect(try a.sync.pendingExports() == 1, "the save waits, kept in the store")
        #expect(a.sync.layout.sequenceNumbers(of: a.store.peer) == [1])
    }

    @Test func copyingObjectsKeepsTheirIDsAndCopyingAgainChangesNothing() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let folder = try a.store.save(author: "add") { try $0.insert("Folder", values: ["name": .string("Home")]) }
        _ = try a.store.save(author: "add") {
            try $0.insert("Note", values: ["title": .string("Milk"), "folder": .reference(folder)])
        }
        #expect(try b.store.copyObjects(from: a.store, author: "copy") == 2)
        #expect(try b.contents() == a.contents())
        #expect(try b.store.copyObjects(from: a.store, author: "copy") == 0)
        #expect(try b.store.outbox().count == 1, "one save, recorded for export")
    }

    @Test func aPlainCopyHasTheObjectsAndNoSyncMetadata() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("Milk")]) }
        try a.sync.sync()
        let url = a.directory.file("plain.sqlite")
        try a.store.writePlainCopy(to: url)
        let plain = try ObjectStore(path: url.path, model: TestModel.definition, version: 2)
        #expect(try plain.allObjects().map(\.values) == (try a.store.allObjects().map(\.values)))
        for table in ["ubiquity_outbox", "ubiquity_unheld_clocks", "ubiquity_tombstone", "ubiquity_peer_state"] {
            #expect(
                try plain.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") } == 0, "\(table)")
        }
        #expect(
            try plain.read { db in try String.fetchAll(db, sql: "SELECT key FROM ubiquity_metadata") } == [
                "createdAtVersion"
            ])
        // No property clocks: they are a column of every row.
        #expect(
            try a.store.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM note WHERE ubiquity_clocks IS NOT NULL")
            } == 1)
        for table in ["note", "folder", "attachment"] {
            #expect(
                try plain.read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE ubiquity_clocks IS NOT NULL")
                } == 0)
        }
    }
}
