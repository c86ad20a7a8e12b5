import Foundation
import TextAndFiles
import Ubiquity

/// A damaged file of the device's own (its settings, its identity) is kept aside and replaced by
/// what the device can tell from its stores, which remember the device's peer ID (in every clock
/// reading it made) and the cloud folder's IDs.
extension DeviceSandbox {
    /// Every store file of the device: its local stores, and each account's cloud and fallback
    /// stores (`ubiquity/<account>/<store>/store.sqlite`, `fallback.sqlite`).
    var storeFiles: [URL] {
        let manager = FileManager.default
        func entries(_ folder: URL) -> [URL] {
            ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().map {
                folder.appendingPathComponent($0)
            }
        }
        var files = entries(localStoreDirectory).filter { $0.pathExtension == "sqlite" }
        for account in entries(ubiquityFolder) {
            for store in entries(account) {
                for name in ["store.sqlite", "fallback.sqlite"] {
                    let file = store.appendingPathComponent(name)
                    if manager.fileExists(atPath: file.path) { files.append(file) }
                }
            }
        }
        return files
    }

    /// `ubiquity/`: a folder per account, each with a folder per store.
    var ubiquityFolder: URL { root.appendingPathComponent("ubiquity", isDirectory: true) }

    /// The peer ID the device's stores say it saved as: the peer that exported from a cloud
    /// store, else the peer part of a store's own clock reading (a save's reading ends with the
    /// device's peer ID). `nil` when no store tells.
    func peerIDFromStores() -> GlobalID? {
        for file in storeFiles {
            if let peer = SQLiteFile.metadata("exportedBy", in: file).flatMap(GlobalID.init) { return peer }
        }
        for file in storeFiles {
            if let reading = SQLiteFile.metadata("hlc", in: file),
                let peer = reading.split(separator: ".").last.flatMap({ GlobalID(String($0)) })
            {
                return peer
            }
        }
        return nil
    }

    /// Keeps a copy of a damaged file of the device's beside it (`settings.json.damaged-<time>`),
    /// before it is replaced: a person may want to read what it held. The damaged file itself is
    /// then replaced in one rename, so another process reads it damaged or rebuilt, never missing.
    ///
    /// - Returns: where the copy is.
    func keepCopy(of damaged: Data, for url: URL, at date: Date = Date()) throws -> URL {
        let stamp = ISO8601DateFormatter().string(from: date).replacingOccurrences(of: ":", with: "")
        let kept = url.deletingLastPathComponent().appendingPathComponent(
            "\(url.lastPathComponent).damaged-\(stamp)-\(getpid())")
        try AtomicFile.write(damaged, to: kept)
        return kept
    }
}
