import Foundation
import TextAndFiles

/// When this device first saw each household file, by its own clock: what decides when a claim
/// or a presence expires. The writer's stated times never do — a device whose clock is a year
/// fast, or a file that says it was written in 2099, would otherwise pin a claim for ever or
/// expire it at once. Kept on this device beside the list's store (`household-seen.json`), never
/// synced; a file that changes (another size or inode) is a new sighting. Files
/// gone from the folder are forgotten. Also remembers which files were refused, so that each is
/// told once.
///
/// Two processes that record at the same moment may each drop the other's new sightings: such a
/// file is first seen again a moment later, which lengthens its life by that moment only.
struct FirstSights: Codable, Equatable {
    struct Sighting: Codable, Equatable {
        var size: Int64
        var inode: UInt64
        /// Seconds since 1970 by this device's clock.
        var firstSeen: Double
    }

    /// By the file's path relative to the cloud folder.
    var seen: [String: Sighting] = [:]
    /// The files refused, by path: their stamp when they were, so that each is told once.
    var refused: [String: Sighting] = [:]

    static let fileName = "household-seen.json"

    static func load(from url: URL) -> FirstSights {
        guard let data = try? Data(contentsOf: url), let sights = try? JSONDecoder().decode(Self.self, from: data)
        else { return FirstSights() }
        return sights
    }

    func save(to url: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return }
        try? FileManager.default.createFolder(at: url.deletingLastPathComponent())
        try? AtomicFile.write(data, to: url)
    }

    /// When `file` was first seen, recording `now` when it is new (or changed).
    mutating func firstSeen(path: String, size: Int64, inode: UInt64, now: Date) -> Date {
        if let known = seen[path], known.size == size, known.inode == inode {
            return Date(timeIntervalSince1970: known.firstSeen)
        }
        seen[path] = Sighting(size: size, inode: inode, firstSeen: now.timeIntervalSince1970)
        return now
    }

    /// Records a refusal; whether it is new (not told before with this stamp).
    mutating func refuse(path: String, size: Int64, inode: UInt64, now: Date) -> Bool {
        if let known = refused[path], known.size == size, known.inode == inode { return false }
        refused[path] = Sighting(size: size, inode: inode, firstSeen: now.timeIntervalSince1970)
        return true
    }

    /// Forgets the files not in `present` (paths of the folders read).
    mutating func keepOnly(_ present: Set<String>, under prefixes: [String]) {
        func isRead(_ path: String) -> Bool { prefixes.contains { path.hasPrefix($0) } }
        seen = seen.filter { !isRead($0.key) || present.contains($0.key) }
        refused = refused.filter { !isRead($0.key) || present.contains($0.key) }
    }
}
