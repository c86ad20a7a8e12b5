import Foundation
import GRDB
import TestSupport
import Testing
import TextAndFiles

@testable import Ubiquity

/// Mutation fuzzing: real logs changed at random — bytes, values, structure — then sealed again
/// with a correct checksum, as a buggy or hostile peer would write them, and imported. Whatever
/// the file, the import never crashes and never applies part of a log: a refused log leaves the
/// store exactly as it was.
///
/// `FUZZ_ITERATIONS` sets how many files (300 by default; `scripts/fuzz-logs.sh` runs more) and
/// `FUZZ_SEED` the first seed, so a failure can be replayed.
@Suite("Mutated logs never crash the import nor half-apply")
struct LogMutationFuzzTests {
    static var iterations: Int { Int(ProcessInfo.processInfo.environment["FUZZ_ITERATIONS"] ?? "") ?? 300 }
    static var firstSeed: UInt64 { UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 1 }

    @Test func mutatedLogsAreAppliedWholeOrNotAtAll() throws {
        let cloud = TemporaryDirectory("fuzz-cloud")
        let clock = TestClock()
        let a = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: clock)
        let payloads = try Self.realPayloads(from: a)
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        _ = try b.sync.importPending()  // a's real logs
        var outcomes: [String: Int] = [:]

        // One peer writes them all, log after log; a refused one is released to go on.
        let peer = "fuzzer"
        try b.sync.layout.makeFolder(b.sync.layout.peerFolder(peer))
        for iteration in 0..<Self.iterations {
            let seed = Self.firstSeed + UInt64(iteration)
            var random = SeededRandom(seed: seed)
            let seq = Int64(iteration + 1)
            let base = payloads[Int.random(in: 0..<payloads.count, using: &random)]
            let payload = Self.mutate(Self.owned(base, by: peer), using: &random)
            let data = try LogFile.seal(
                payload, magic: LogFile.magic, layout: b.sync.layout, peer: peer, device: "fuzz", seq: seq)
            try data.write(to: b.sync.layout.logURL(peer: peer, seq: seq))

            let before = try b.contents()
            let report = try b.sync.importPending()
            if try b.sync.watermark(of: peer) == seq {
                outcomes["applied", default: 0] += 1
                #expect(report.refused.isEmpty, "seed \(seed)")
            } else {
                outcomes["refused", default: 0] += 1
                #expect(report.refused.map(\.seq) == [seq], "seed \(seed): neither applied nor refused")
                #expect(try b.contents() == before, "seed \(seed): a refused log changed the store")
                try b.sync.release(peer: peer, seq: seq)
            }
        }
        // Both kinds happened: the mutations are neither all harmless nor all fatal.
        if Self.iterations >= 100 {
            #expect((outcomes["applied"] ?? 0) > 0 && (outcomes["refused"] ?? 0) > 0, "\(outcomes)")
        }
    }

    // MARK: - Real logs to start from

    /// The payloads of real logs: inserts with references and data, updates, deletes.
    static func realPayloads(from a: TestPeer) throws -> [Data] {
        let folder = try a.store.save(author: "folder") { try $0.insert("Folder", values: ["name": .string("Home")]) }
        var notes: [GlobalID] = []
        for title in ["Milk", "Bread", "Tea"] {
            notes.append(
                try a.store.save(author: "note") { context in
                    let attachment = try context.insert("Attachment", values: ["bytes": .data(Data(title.utf8))])
                    return try context.insert(
                        "Note",
                        values: [
                            "title": .string(title), "count": .integer(2),
                            "folder": .reference(folder), "attachment": .reference(attachment),
                        ])
                })
        }
        _ = try a.store.save(author: "edit") {
            try $0.update("Note", id: notes[0], values: ["count": .integer(5), "pinned": .bool(true)])
        }
        try a.store.save(author: "delete") { try $0.delete("Note", id: notes[1]) }
        _ = try a.store.save(author: "unlink") { try $0.update("Note", id: notes[2], values: ["folder": .null]) }
        return try a.store.outbox().map { $0.jsonData() }
    }

    /// The payload as another peer's: its clock reading carries that peer's name.
    static func owned(_ payload: Data, by peer: String) -> Data {
        guard case .object(var fields)? = try? JSONValue.parse(payload), case .string(let clock)? = fields["clock"]
        else { return payload }
        fields["clock"] = .string(clock.split(separator: ".").prefix(2).joined(separator: ".") + "." + peer)
        return Data(text(.object(fields)).utf8)
    }

    // MARK: - Mutations

    static func mutate(_ payload: Data, using random: inout SeededRandom) -> Data {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:  // a byte changed
            var bytes = payload
            if !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            return bytes
        case 1:  // cut short, or bytes added
            return Bool.random(using: &random)
                ? payload.prefix(Int.random(in: 0...payload.count, using: &random))
                : payload
                    + Data(
                        (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                        })
        default:  // a value, a key or a shape changed, as JSON
            guard let value = try? JSONValue.parse(payload) else { return payload }
            var tree = value
            for _ in 0..<Int.random(in: 1...3, using: &random) { tree = mutate(tree, using: &random) }
            return Data(text(tree).utf8)
        }
    }

    static let hostileValues: [JSONValue] = [
        .null, .bool(true), .number("-1"), .number("1e300"), .number("-1e300"), .number("9223372036854775807"),
        .number("2147483648"), .number("0.1"), .string(""), .string("\u{FEFF}"), .string("\u{7}"),
        .string("a\u{202E}b"),
        .string(String(repeating: "x", count: 5000)), .string("not-a-uuid"), .string("0000000000000000.000000."),
        .string("9999999999999999.2147483647.fz"), .string("00000000-0000-4000-8000-000000000001"),
        .array([]), .object([:]), .object(["s": .string("x")]), .object(["i": .number("-5")]),
        .object(["t": .number("1e300")]),
        .object(["d": .number("-3")]), .object(["r": .string("00000000-0000-4000-8000-000000000001")]),
        .object(["h": .string(String(repeating: "a", count: 64))]), .object(["x": .string("!!!")]),
        .object(["q": .null]),
        .object(["s": .string("x"), "i": .number("1")]),
    ]

    static let keys = [
        "title", "count", "modified", "folder", "attachment", "pinned", "bytes", "name", "entity", "id",
        "clock", "timestamp", "inserted", "updated", "deleted", "values", "object", "colour",
    ]

    /// Changes one node somewhere in the tree: replaces it, removes or adds a key, renames an
    /// entity, wraps it, duplicates an array's element.
    static func mutate(_ value: JSONValue, using random: inout SeededRandom) -> JSONValue {
        switch value {
        case .object(var fields) where !fields.isEmpty && Int.random(in: 0..<3, using: &random) > 0:
            let key = fields.keys.sorted()[Int.random(in: 0..<fields.count, using: &random)]
            switch Int.random(in: 0..<6, using: &random) {
            case 0: fields[key] = nil
            case 1:
                fields[keys[Int.random(in: 0..<keys.count, using: &random)]] =
                    hostileValues[Int.random(in: 0..<hostileValues.count, using: &random)]
            case 2 where key == "entity":
                fields[key] = .string(
                    ["Note", "Folder", "Attachment", "Nope", ""][Int.random(in: 0..<5, using: &random)])
            default: fields[key] = mutate(fields[key]!, using: &random)
            }
            return .object(fields)
        case .array(var items) where !items.isEmpty && Int.random(in: 0..<3, using: &random) > 0:
            let index = Int.random(in: 0..<items.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: items.remove(at: index)
            case 1: items.append(items[index])
            default: items[index] = mutate(items[index], using: &random)
            }
            return .array(items)
        default:
            return Int.random(in: 0..<5, using: &random) == 0
                ? .array([value]) : hostileValues[Int.random(in: 0..<hostileValues.count, using: &random)]
        }
    }

    /// JSON text of a value (keys sorted, so a seed replays the same bytes).
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number): number
        case .string(let string): JSONText.quoted(string)
        case .array(let items): "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let fields):
            "{"
                + fields.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":" + text($0.value) }.joined(
                    separator: ",") + "}"
        }
    }
}
