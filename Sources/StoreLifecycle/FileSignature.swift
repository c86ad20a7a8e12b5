import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A cheap fingerprint of files and folder trees: each one's size and change time, read with
/// `stat`, folders walked with `readdir` — no `FileManager` dictionaries, no URLs. Whatever is
/// added, removed or rewritten in them changes it; it says nothing of what.
enum FileSignature {
    /// `files` and every folder under each of `trees` down to `depth` levels (the tree's own
    /// folder is level 0), sorted so that the order of a listing does not matter.
    static func of(files: [String], trees: [String], depth: Int) -> String {
        var entries = files.map(stamp)
        for tree in trees { walk(tree, level: 0, depth: depth, into: &entries) }
        return entries.sorted().joined(separator: ";")
    }

    /// "path size mtime", or "path -" when it is not there.
    private static func stamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return path + " -" }
        return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    private static func walk(_ folder: String, level: Int, depth: Int, into entries: inout [String]) {
        entries.append(stamp(folder))
        guard level < depth, let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var children: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let path = folder + "/" + name
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) {
                children.append(path)
            } else if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { children.append(path) }
            }
        }
        for child in children { walk(child, level: level + 1, depth: depth, into: &entries) }
    }
}
