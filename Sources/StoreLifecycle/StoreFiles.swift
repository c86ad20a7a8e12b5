import Foundation
import GroceryModel
import Ubiquity

/// A store's files on disk: the SQLite file with its `-wal` and `-shm`.
enum StoreFiles {
    static let suffixes = ["", "-wal", "-shm"]

    /// Moves a closed store's files into `folder`, named `<label>-<UTC date and time>.sqlite`,
    /// never over an existing file: how the app keeps a store it stops using.
    ///
    /// - Returns: where the store is now.
    @discardableResult
    static func setAside(_ url: URL, into folder: URL, label: String, at date: Date = Date()) throws -> URL {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = Timestamp.fileStamp(date)
        var target = folder.appendingPathComponent("\(label)-\(stamp).sqlite")
        var attempt = 1
        while manager.fileExists(atPath: target.path) {
            attempt += 1
            target = folder.appendingPathComponent("\(label)-\(stamp)-\(attempt).sqlite")
        }
        // The main file last: a crash midway leaves it where it was, with its journal.
        for suffix in suffixes.reversed() where manager.fileExists(atPath: url.path + suffix) {
            try manager.moveItem(atPath: url.path + suffix, toPath: target.path + suffix)
        }
        return target
    }

    /// Moves a closed store's files to `target`, where no store is: the main file last, so that a
    /// crash midway leaves it where it was, with its journal.
    static func move(_ url: URL, to target: URL) throws {
        let manager = FileManager.default
        for suffix in suffixes.reversed() where manager.fileExists(atPath: url.path + suffix) {
            try manager.moveItem(atPath: url.path + suffix, toPath: target.path + suffix)
        }
    }

    /// Deletes a closed store whose content lives on elsewhere (a fallback store moved into the
    /// cloud store). The main file first: without it, a leftover journal is never read.
    static func remove(_ url: URL) throws {
        let manager = FileManager.default
        for suffix in suffixes where manager.fileExists(atPath: url.path + suffix) {
            try manager.removeItem(atPath: url.path + suffix)
        }
    }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
}
