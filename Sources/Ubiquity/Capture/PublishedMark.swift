import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The last log number this device published, per identity and folder of logs
/// (`<peer> v<model version>/epoch-<n>`: an identity renewed after a copy numbers from 1),
/// kept beside the store in `<store>.published`, outside it: a store restored from a backup
/// forgets what it published since, and when one of those logs is also gone from the cloud
/// folder (deleted, or never synced), nothing else on the device says its number was used. A
/// published name is never written again, so an export numbers after this mark.
///
/// One small JSON object, rewritten after each export under the export lock, without a sync: a
/// mark lost in a crash only leaves the device as it was before marks existed.
enum PublishedMark {
    static func url(storePath: String) -> URL { URL(fileURLWithPath: storePath + ".published") }

    /// The key of an identity's folder of logs.
    static func key(peer: String, folder: String) -> String { "\(peer) \(folder)" }

    /// The marks, by key; empty when the file is missing or damaged.
    static func read(storePath: String) -> [String: Int64] {
        guard let data = try? Data(contentsOf: url(storePath: storePath)), data.count <= 64 << 10,
            let marks = try? JSONDecoder().decode([String: Int64].self, from: data)
        else { return [:] }
        return marks
    }

    /// Raises the mark of `key` to `seq` (never lowers it).
    static func raise(_ key: String, to seq: Int64, storePath: String) {
        var marks = read(storePath: storePath)
        guard (marks[key] ?? 0) < seq else { return }
        marks[key] = seq
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(marks) else { return }
        let fd = open(url(storePath: storePath).path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
