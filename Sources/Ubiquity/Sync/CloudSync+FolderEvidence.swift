import Foundation

extension CloudSync {
    /// Whether the cloud folder holds the history this store knows it took part in: evidence
    /// that a folder without identity markers (set up by an earlier build) is the one this device
    /// synced with, and not an empty mount point or another share.
    ///
    /// The store's last own log (its watermark moves with each export), else the last log it
    /// applied of any other device, must be there — or a baseline of that device, which covers
    /// logs removed since.
    ///
    /// - Returns: `nil` when the store never published nor applied anything (there is nothing
    ///   to look for); otherwise whether one such file is there.
    public func folderHoldsKnownHistory() throws -> Bool? {
        let watermarks = try store.read { db in try Watermarks.all(folder: layout.watermarkFolder, db) }
            .filter { $0.value > 0 }
        guard !watermarks.isEmpty else { return nil }
        // This device's own first: it is what the folder must hold above all.
        let peers = watermarks.keys.sorted { ($0 == peer ? 0 : 1, $0) < ($1 == peer ? 0 : 1, $1) }
        for other in peers {
            let seq = watermarks[other]!
            if FileManager.default.fileExists(atPath: layout.logURL(peer: other, seq: seq).path) { return true }
            if !layout.baselineNumbers(of: other).isEmpty { return true }
        }
        return false
    }
}
