import Foundation
import TestSupport
import Testing

@testable import Ubiquity

/// An export may import first: a peer that has never exported but finds its own baselines or
/// logs in the cloud folder learns that history before numbering its saves, and that import
/// applies every other peer's pending logs too. What it applied must be told like any import —
/// a screen refreshes from it, `cloud sync` counts it — never dropped.
@Suite("Imports made by an export")
struct ImportsMeanwhileTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    func titles(_ peer: TestPeer) throws -> Set<String> {
        try peer.store.read { db in Set(try String.fetchAll(db, sql: "SELECT title FROM note")) }
    }

    @Test func anExportsImportIsHandedOnWithTheNextImport() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        // b only reads, and has written a baseline (the live watcher does after 500 logs).
        _ = try #require(try b.sync.writeBaseline())
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("from a")]) }
        try a.sync.exportPending()

        // b's export learns b's own history first, and applies a's log on the way.
        #expect(try b.sync.exportPending() == 0)
        #expect(try titles(b) == ["from a"])
        let report = try b.sync.importPending()
        #expect(report.appliedLogs == 1 && report.changes.inserted.count == 1 && report.devices == ["a"])
        // Told once.
        #expect(try b.sync.importPending().changes.isEmpty)
        #expect(b.sync.takeImportedMeanwhile() == nil)
    }

    @Test func itCanBeTakenWithoutImportingAgain() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try #require(try b.sync.writeBaseline())
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("one")]) }
        _ = try a.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("two")]) }
        try a.sync.exportPending()

        // As the live watcher after writing a baseline: the baseline's export imported.
        _ = try #require(try b.sync.writeBaseline())
        let meanwhile = try #require(b.sync.takeImportedMeanwhile())
        #expect(meanwhile.appliedLogs == 2 && meanwhile.changes.inserted.count == 2 && meanwhile.changedSomething)
        #expect(b.sync.takeImportedMeanwhile() == nil)
    }

    @Test func aBaselineAloneIsAChange() {
        var report = ImportReport()
        #expect(!report.changedSomething)
        report.loadedBaselines = 1
        #expect(report.changedSomething)
    }
}
