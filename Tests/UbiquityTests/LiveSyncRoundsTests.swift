import Foundation
import TestSupport
import Testing

@testable import Ubiquity

/// Which path a live round takes (``LiveSync/rounds``): a peer's next log, named by the folder
/// watcher, is imported alone, without a survey of the cloud folder; a log that cannot be taken
/// alone (a gap, a damaged log) makes a full round, and the data still converges. Real files in
/// a real folder, real inotify; the rescan comes every ten minutes, so that within a test a full
/// round after the first is one the logs called for.
@Suite("Live sync's rounds")
struct LiveSyncRoundsTests {
    let cloud = TemporaryDirectory("live-rounds")
    let clock = TestClock()

    /// The lines a live sync told (`onProblem`), and a wakeup signalled at each import and line.
    private final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [String] = []
        let wakeup = Wakeup()

        var lines: [String] { lock.withLock { told } }

        func add(_ line: String) {
            lock.withLock { told.append(line) }
            wakeup.signal()
        }
    }

    private func startLive(_ peer: TestPeer) throws -> (LiveSync, Told) {
        let told = Told()
        let live = LiveSync(sync: peer.sync)
        try live.start(rescanInterval: 600, onImport: { _ in told.wakeup.signal() }, onProblem: told.add)
        return (live, told)
    }

    private func save(_ peer: TestPeer, _ title: String) throws {
        _ = try peer.store.save(author: "add") { try $0.insert("Note", values: ["title": .string(title)]) }
        try peer.sync.exportPending()
    }

    /// Puts `bytes` in the follower's cloud folder as the writer's log `seq`, in one rename, as a
    /// sync engine delivers a file: the watcher is told its name once, when it is whole.
    private func deliver(_ bytes: Data, seq: Int64, to follower: TestPeer) throws {
        let incoming = cloud.file(".incoming-\(UUID().uuidString)")
        try bytes.write(to: incoming)
        let target = follower.sync.layout.logURL(peer: "peer-a", seq: seq)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(incoming.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Waits until the follower holds what the writer does, and returns the counts then. A full
    /// round is counted before it surveys, so one that brought the change is in them; a round on
    /// named logs is counted just after its commit, and may not be yet.
    private func waitForConvergence(
        of follower: TestPeer, with writer: TestPeer, _ live: LiveSync, _ told: Told
    ) throws -> LiveSyncRounds {
        let expected = try writer.contents()
        return try Poll.until(
            wakingOn: told.wakeup, reading: { (try follower.contents(), live.rounds) },
            { "\(expected.count) rows, rounds \($0.1); the follower has \($0.0.count) rows" }
        ) { contents, _ in contents == expected }.1
    }

    @Test func aStreamOfLogsIsImportedByTheNamedLogsAloneAfterTheFirstRound() throws {
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        // The writer's folder is there before the follower watches: a folder that appears
        // sends no names (its files may have come before its watch), and makes a full round.
        try save(a, "Note 0")
        let (live, told) = try startLive(b)
        defer { live.stop() }
        let first = try waitForConvergence(of: b, with: a, live, told)
        #expect(first == LiveSyncRounds(namedLogs: 0, full: 1), "the first round surveys the folder")

        // Each log, written by the writer's own export, is imported by a round on its name
        // alone: a regression that made every round a full one (the names ignored, the rescan
        // interval's test turned around) fails here.
        for index in 1...5 {
            try save(a, "Note \(index)")
            let rounds = try waitForConvergence(of: b, with: a, live, told)
            #expect(rounds.full == 1, "log \(index + 1) was imported by a full round")
        }
        try Poll.until(wakingOn: told.wakeup, "a round on its name for each log: \(live.rounds)") {
            live.rounds.namedLogs >= 5
        }
        #expect(live.rounds.full == 1)
        #expect(told.lines.isEmpty)
    }

    @Test func aLogAfterAGapMakesAFullRoundAndTheLogsFollowOnceTheGapIsFilled() throws {
        let staging = TemporaryDirectory("live-rounds-writer")
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: staging.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        // A second writer in the follower's folder, whose logs no gap holds back.
        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        // The writer exports into a folder of its own; its logs reach the follower's as the
        // test delivers them, in the order it chooses.
        func log(_ seq: Int64) throws -> Data { try Data(contentsOf: a.sync.layout.logURL(peer: "peer-a", seq: seq)) }
        try save(a, "Milk")
        try deliver(try log(1), seq: 1, to: b)
        try save(c, "Tea")
        let (live, told) = try startLive(b)
        defer { live.stop() }
        let noteCount = { try b.ids(of: "Note").count }
        try Poll.until(wakingOn: told.wakeup, "the first round imports both writers' logs") { try noteCount() == 2 }

        // Log 3 arrives while log 2 is held back: it cannot be taken alone.
        try save(a, "Eggs")
        try save(a, "Bread")
        try deliver(try log(3), seq: 3, to: b)
        try Poll.until(wakingOn: told.wakeup, "the full round tells of the gap: \(told.lines)") {
            told.lines.contains("waiting for log 2 from peer peer-a")
        }
        #expect(live.rounds.full == 2)
        #expect(try b.sync.watermark(of: "peer-a") == 1, "nothing after the gap applied")

        // Meanwhile the other writer's logs are still taken by their names.
        let named = live.rounds.namedLogs
        try save(c, "Coffee")
        try Poll.until(wakingOn: told.wakeup, "the other writer's log arrives: \(live.rounds)") {
            try noteCount() == 3 && (live.rounds.namedLogs > named || live.rounds.full > 2)
        }
        #expect(live.rounds.full == 2, "the other writer's log was imported by a full round")

        // Log 2 arrives under its own name; log 3, there already, is named by no event: the
        // round is a full one, which takes both at once rather than leaving 3 to the rescan.
        try deliver(try log(2), seq: 2, to: b)
        try Poll.until(wakingOn: told.wakeup, "the gap filled: \(live.rounds)") { try noteCount() == 5 }
        let filled = live.rounds
        #expect(filled.full == 3)

        // Nobody waits any more: the next log is taken by its name again.
        try save(a, "Butter")
        try deliver(try log(4), seq: 4, to: b)
        try Poll.until(wakingOn: told.wakeup, "log 4 arrives: \(live.rounds)") {
            try noteCount() == 6 && (live.rounds.namedLogs > filled.namedLogs || live.rounds.full > 3)
        }
        #expect(live.rounds.full == 3, "log 4 was imported by a full round")
    }

    @Test func aDamagedLogMakesAFullRoundAndItsWholeCopyTakesTheLogsAfterIt() throws {
        let staging = TemporaryDirectory("live-rounds-writer")
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: staging.url, clock: clock)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        func log(_ seq: Int64) throws -> Data { try Data(contentsOf: a.sync.layout.logURL(peer: "peer-a", seq: seq)) }
        try save(a, "Milk")
        try deliver(try log(1), seq: 1, to: b)
        let (live, told) = try startLive(b)
        defer { live.stop() }
        _ = try waitForConvergence(of: b, with: a, live, told)

        // Log 3 first: the full round tells of the gap.
        try save(a, "Eggs")
        try save(a, "Bread")
        try deliver(try log(3), seq: 3, to: b)
        try Poll.until(wakingOn: told.wakeup, "the full round tells of the gap: \(told.lines)") {
            told.lines == ["waiting for log 2 from peer peer-a"]
        }
        // Then half of log 2 (a sync engine's copy cut short): it cannot be read, and the full
        // round its name makes tells of it.
        let whole = try log(2)
        try deliver(whole.prefix(whole.count / 2), seq: 2, to: b)
        try Poll.until(wakingOn: told.wakeup, "the full round tells of the damaged log: \(told.lines)") {
            told.lines.count == 2
        }
        #expect(live.rounds.full == 3)
        #expect(try b.sync.watermark(of: "peer-a") == 1)

        // The whole log, delivered over it, makes a full round again, which takes log 3 with
        // it rather than leaving it, named by no event, to the rescan.
        try deliver(whole, seq: 2, to: b)
        let repaired = try waitForConvergence(of: b, with: a, live, told)
        #expect(repaired.full == 4)

        // Nothing is held back any more: the next log is taken by its name.
        try save(a, "Butter")
        try deliver(try log(4), seq: 4, to: b)
        let after = try waitForConvergence(of: b, with: a, live, told)
        #expect(after.full == 4, "log 4 was imported by a full round")
    }
}
