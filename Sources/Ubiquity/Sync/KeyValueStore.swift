import Foundation
import TextAndFiles

/// A small synced key-value store per account (Core Data's `NSUbiquitousKeyValueStore`, used for
/// `SEEDED_DATA`): last writer wins per key, by clock.
///
/// Built from immutable files like the logs: each write is a new file of its peer,
/// `<cloud>/<account>/kv/<peer>/<n>.gdkv`, holding the keys it sets (or removes) with a clock
/// reading. Reading merges every peer's files; damaged or foreign files are skipped.
public final class KeyValueStore: @unchecked Sendable {
    struct Entry: Codable, Equatable {
        var value: String?
        var clock: HLC
    }

    struct File: Codable {
        var format: String
        var peer: String
        var number: Int64
        var writes: [String: Entry]
    }

    /// The largest file read: a write holds one key.
    static let maximumFileBytes: Int64 = 64 * 1024
    static let maximumNumber: Int64 = 1_000_000_000_000

    static func isSane(_ clock: HLC) -> Bool {
        clock.wall >= 0 && Double(clock.wall) <= ValueRule.dateRange.upperBound * 1000 && clock.counter >= 0
            && HLC.isPeerName(clock.peer)
    }

    public let folder: URL
    private let cloud: URL
    private let peer: String
    /// The name written in every file, which marks it as this app's (the app chooses it).
    private let format: String
    private let clock: any WallClock
    /// Whether a write may create the account's folder (see ``CloudLayout/createsAccountFolder``).
    private let createsAccountFolder: Bool
    private let lock = NSLock()

    public init(
        cloud: URL, account: String, peer: String, format: String, clock: any WallClock = SystemWallClock(),
        createsAccountFolder: Bool = true
    ) {
        self.cloud = cloud
        self.createsAccountFolder = createsAccountFolder
        self.folder = CloudLayout.accountFolder(cloud: cloud, account: account).appendingPathComponent(
            CloudLayout.keyValueFolderName, isDirectory: true)
        self.peer = peer
        self.format = format
        self.clock = clock
    }

    /// Every key with its value, merged from all peers.
    public func all() -> [String: String] {
        merged().compactMapValues(\.value)
    }

    /// For each key starting with `prefix`, the last value each peer set (removals left out):
    /// for values that merge what every peer said rather than keep the last writer's.
    public func everyPeersValue(prefix: String) -> [String: [String]] {
        var last: [String: [String: Entry]] = [:]  // key → peer → its newest write
        for file in readFiles() {
            for (key, entry) in file.writes where key.hasPrefix(prefix) {
                if last[key]?[file.peer].map({ $0.clock < entry.clock }) ?? true {
                    last[key, default: [:]][file.peer] = entry
                }
            }
        }
        return last.mapValues { $0.values.sorted { $0.clock < $1.clock }.compactMap(\.value) }
    }

    public func value(forKey key: String) -> String? {
        merged()[key]?.value
    }

    /// Sets (or, with `nil`, removes) a key, for every peer that reads the folder.
    public func set(_ value: String?, forKey key: String) throws {
        try lock.withLock {
            let files = readFiles()
            let newest = files.flatMap(\.writes.values).map(\.clock).max()
            // After every reading seen, however far ahead: a value set after seeing another wins.
            guard let reading = HLC.next(after: newest, now: clock.now(), peer: peer) else {
                throw StoreError.noLaterClockReading("the synced key \(key.debugDescription)")
            }
            let number = (files.filter { $0.peer == peer }.map(\.number).max() ?? 0) + 1
            let file = File(
                format: format, peer: peer, number: number, writes: [key: Entry(value: value, clock: reading)])
            let url = folder.appendingPathComponent(peer, isDirectory: true).appendingPathComponent("\(number).gdkv")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cloud.path, isDirectory: &isDirectory), isDirectory.boolValue,
                createsAccountFolder || FileStamp.exists(folder.deletingLastPathComponent())
            else {
                throw CloudError.unreachable(cloud.path)
            }
            try FileManager.default.createFolder(at: url.deletingLastPathComponent())
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try AtomicFile.write(try encoder.encode(file), to: url)
        }
    }

    private func merged() -> [String: Entry] {
        var result: [String: Entry] = [:]
        for file in readFiles() {
            for (key, entry) in file.writes where result[key].map({ $0.clock < entry.clock }) ?? true {
                result[key] = entry
            }
        }
        return result
    }

    private func readFiles() -> [File] {
        let decoder = JSONDecoder()
        let peers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return peers.filter { !$0.hasPrefix(".") }.flatMap { peerName -> [File] in
            let peerFolder = folder.appendingPathComponent(peerName, isDirectory: true)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: peerFolder.path)) ?? []
            return names.filter { $0.hasSuffix(".gdkv") && !$0.hasPrefix(".") }.compactMap { name in
                let url = peerFolder.appendingPathComponent(name)
                // Files from the cloud folder: regular files, small, numbered and stamped sanely.
                guard case .success(let stamp) = FileStamp.of(url), stamp.size <= Self.maximumFileBytes,
                    let data = try? Data(contentsOf: url),
                    let file = try? decoder.decode(File.self, from: data),
                    file.format == format, file.peer == peerName, (1...Self.maximumNumber).contains(file.number),
                    file.writes.values.allSatisfy({ Self.isSane($0.clock) && $0.clock.peer == peerName })
                else { return nil }
                return file
            }
        }
    }
}
