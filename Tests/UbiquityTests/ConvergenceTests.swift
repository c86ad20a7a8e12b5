import Foundation
import GRDB
import TestSupport
import Testing
import TextAndFiles

@testable import Ubiquity

/// Property-based: random operations on 3 peers, each with its own replica of the cloud folder;
/// a random "network" copies log files between replicas out of order, again, or late, and
/// peers restart in between. Operations include deduplications, which merge notes and folders
/// whose names differ only in case while other peers edit, delete and point at the copies.
/// Once everything is delivered, all peers hold identical data.
///
/// 40 seeds × 3 peers × 60 steps = 7,200 random steps per run (seeds 1…40, replayable).
@Suite("Peers converge whatever the delivery")
struct ConvergenceTests {
    static let seeds: [UInt64] = Array(1...40)
    static let steps = 60

    @Test(arguments: seeds)
    func randomOperationsConverge(seed: UInt64) throws {
        try run(seed: seed, harsh: false)
    }

    /// The same with baselines written and covered logs pruned at random, and files that a
    /// sync engine delivers half-copied first (the whole file lands later): a baseline read
    /// while incomplete must be read again, or a peer lacks its data for ever.
    @Test(arguments: Array(seeds.prefix(20)))
    func randomOperationsWithBaselinesPruningAndHalfCopiedFilesConverge(seed: UInt64) throws {
        try run(seed: seed, harsh: true)
    }

    /// The same with each peer's clock wrong by years: one ten years fast, one before 1970.
    /// Readings then order edits mostly by who saw what, and peers must still agree.
    @Test(arguments: Array(seeds.prefix(20)))
    func randomOperationsWithClocksYearsApartConverge(seed: UInt64) throws {
        try run(seed: seed, harsh: false, skews: [0, 3650 * 86_400, -58 * 365 * 86_400])
    }

    /// - Parameter skews: how far each peer's clock is from the true time, in seconds.
    func run(seed: UInt64, harsh: Bool, skews: [TimeInterval] = [0, 0, 0]) throws {
        var random = SeededRandom(seed: seed)
        let start = TestClock().now()
        let clocks = skews.map { TestClock(start + $0) }
        let replicas = (0..<3).map { _ in TemporaryDirectory("replica") }
        let peers = try (0..<3).map { index in
            try TestPeer(
                name: "p\(index)", prefix: String(repeating: "\(index + 1)", count: 8), cloud: replicas[index].url,
                clock: clocks[index])
        }

        for _ in 0..<Self.steps {
            let peer = peers[Int.random(in: 0..<3, using: &random)]
            try randomOperation(on: peer, using: &random)
            let elapsed = Double(Int.random(in: 0...3, using: &random)) / 1000
            for clock in clocks { clock.advance(by: elapsed) }
            if Bool.random(using: &random) { try peer.sync.exportPending() }
            if harsh, Int.random(in: 0..<8, using: &random) == 0 {
                try peer.sync.writeBaseline()
                try peer.sync.pruneCoveredLogs(gracePeriod: 0)
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let from = Int.random(in: 0..<3, using: &random)
                let to = Int.random(in: 0..<3, using: &random)
                if from != to {
                    try deliverSome(from: replicas[from].url, to: replicas[to].url, halfCopies: harsh, using: &random)
                }
            }
            let importer = peers[Int.random(in: 0..<3, using: &random)]
            _ = try importer.sync.importPending()
            if Int.random(in: 0..<20, using: &random) == 0 {
                try peers[Int.random(in: 0..<3, using: &random)].restart()
            }
        }

        // Deliver everything everywhere, then let every peer catch up.
        for peer in peers { try peer.sync.exportPending() }
        for from in replicas { for to in replicas where from !== to { try deliverAll(from: from.url, to: to.url) } }
        for peer in peers { _ = try peer.sync.importPending() }
        // Baselines first, then what they did not cover.
        if harsh { for peer in peers { _ = try peer.sync.importPending() } }

        let reference = try peers[0].contents()
        for peer in peers.dropFirst() {
            #expect(try peer.contents() == reference, "seed \(seed): \(peer.name) differs from p0")
        }
        for peer in peers {
            #expect(try peer.sync.pendingImports() == 0 && peer.sync.pendingExports() == 0)
        }
        // And they prove it: the same applied logs, the same digest.
        let digests = try peers.map { try #require($0.sync.publishDigest(force: true).digest) }
        for (peer, digest) in zip(peers, digests).dropFirst() {
            #expect(
                digest.applied == digests[0].applied && digest.top == digests[0].top,
                "seed \(seed): \(peer.name)'s digest differs from p0's")
        }
    }

    // MARK: - Operations

    func randomOperation(on peer: TestPeer, using random: inout SeededRandom) throws {
        let notes = try peer.ids(of: "note")
        let folders = try peer.ids(of: "folder")
        if Int.random(in: 0..<8, using: &random) == 0 {
            _ = try Deduplicator(store: peer.store).run()
            return
        }
        try peer.store.save(author: "random") { context in
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2:
                var values: [String: PropertyValue] = [
                    "title": .string(["Milk", "Eggs", "Tea", "milk", "TEA"].randomElement(using: &random)!)
                ]
                if let folder = folders.randomElement(using: &random), Bool.random(using: &random) {
                    values["folder"] = .reference(folder)
                }
                try context.insert("Note", values: values)
            case 3...5:
                guard let note = notes.randomElement(using: &random) else { return }
                let values: [String: PropertyValue] =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0:
                        [
                            "title": .string(
                                ["T", "t"].randomElement(using: &random)! + "\(Int.random(in: 0..<5, using: &random))")
                        ]
                    case 1: ["count": .integer(Int64.random(in: 0..<100, using: &random))]
                    case 2: ["pinned": .bool(Bool.random(using: &random))]
                    default: ["folder": folders.randomElement(using: &random).map(PropertyValue.reference) ?? .null]
                    }
                try context.update("Note", id: note, values: values)
            case 6:
                guard let note = notes.randomElement(using: &random) else { return }
                try context.delete("Note", id: note)
            case 7, 8:
                try context.insert(
                    "Folder",
                    values: [
                        "name": .string(
                            ["F", "f"].randomElement(using: &random)! + "\(Int.random(in: 0..<3, using: &random))")
                    ])
            default:
                guard let folder = folders.randomElement(using: &random) else { return }
                if Bool.random(using: &random) {
                    try context.update(
                        "Folder", id: folder,
                        values: [
                            "name": .string(
                                ["F", "f"].randomElement(using: &random)! + "\(Int.random(in: 0..<3, using: &random))")
                        ])
                } else {
                    try context.delete("Folder", id: folder)
                }
            }
        }
    }

    // MARK: - The network

    func logFiles(in cloud: URL) -> [String] {
        let root = cloud.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".gdlog") || $0.hasSuffix(".gdbase") }
            .sorted()
    }

    /// Copies a random subset of one replica's logs (and baselines) to another, in random
    /// order, some again; with `halfCopies`, some arrive cut in half, to be completed later.
    func deliverSome(from: URL, to: URL, halfCopies: Bool = false, using random: inout SeededRandom) throws {
        for file in logFiles(in: from).shuffled(using: &random) where Int.random(in: 0..<3, using: &random) == 0 {
            let half = halfCopies && Int.random(in: 0..<4, using: &random) == 0
            try copy(file, from: from, to: to, overwrite: true, half: half)
        }
    }

    /// Copies every file the other replica lacks or holds only in part.
    func deliverAll(from: URL, to: URL) throws {
        for file in logFiles(in: from) { try copy(file, from: from, to: to, overwrite: false) }
    }

    func copy(_ file: String, from: URL, to: URL, overwrite: Bool, half: Bool = false) throws {
        let target = to.appendingPathComponent(file)
        let data = try Data(contentsOf: from.appendingPathComponent(file))
        if let existing = try? Data(contentsOf: target) {
            // A file is never replaced by a shorter copy (a half one is only completed); the
            // same file again is written again when `overwrite` says so.
            let source = half ? data.count / 2 : data.count
            guard source > existing.count || (overwrite && source == existing.count) else { return }
        }
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(half ? data.prefix(data.count / 2) : data, to: target)
    }
}
