import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Faults nobody meant: a photo still in transit when a baseline is written, a folder that
/// cannot be listed.
@Suite("Real-world faults")
struct RealWorldFaultTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    @Test func aBaselineWrittenWhileAPhotoIsInTransitCarriesItsReference() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let photo = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try a.store.save(author: "add") { context in
            let attachment = try context.insert("Attachment", values: ["bytes": .data(photo)])
            try context.insert("Note", values: ["title": .string("With photo"), "attachment": .reference(attachment)])
        }
        try a.sync.exportPending()
        // The photo's file is still on its way when b imports the log and writes a baseline.
        let blob = a.sync.blobURL(SHA256.hex(photo))
        let aside = cloud.file("in-transit.blob")
        try FileManager.default.moveItem(at: blob, to: aside)
        _ = try b.sync.importPending()
        _ = try #require(try b.sync.writeBaseline())
        // Only the baseline is left of the history; a new peer starts from it.
        for peer in ["peer-a", "peer-b"] {
            for seq in b.sync.layout.sequenceNumbers(of: peer) {
                try FileManager.default.removeItem(at: b.sync.layout.logURL(peer: peer, seq: seq))
            }
        }
        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        let first = try c.sync.importPending()
        #expect(first.loadedBaselines == 1)
        #expect(first.waiting.contains { $0.hasPrefix("waiting for blob") }, "the photo is awaited, not forgotten")
        // The photo lands: the new peer has it, as a and b will.
        try FileManager.default.moveItem(at: aside, to: blob)
        _ = try c.sync.importPending()
        _ = try b.sync.importPending()
        #expect(try c.store.read { db in try Data.fetchOne(db, sql: "SELECT bytes FROM attachment") } == photo)
        #expect(try c.contents() == (try a.contents()))
        #expect(try b.contents() == (try a.contents()))
    }

    @Test func aFolderThatCannotBeListedIsReportedNotTakenForEmpty() throws {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        let layout = b.sync.layout
        try layout.makeFolder(layout.logsFolder)
        // Tests run as root, which permissions do not stop: a file where a peer's folder
        // belongs cannot be listed either (a broken mount or chmod 000 reads the same).
        try Data("x".utf8).write(to: layout.peerFolder("peer-x"))
        let report = try b.sync.importPending()
        #expect(report.refused.map(\.kind) == [.folder])
        #expect(
            report.rejected.first?.contains("logs/peer-x: cannot be listed (Not a directory)") == true,
            "\(report.rejected)")
        #expect(try b.sync.refusedFiles().map(\.kind) == [.folder])
        try FileManager.default.removeItem(at: layout.peerFolder("peer-x"))
        #expect(try b.sync.refusedFiles().isEmpty)
    }
}
