import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which process holds a store's write lock, for the message of a save that waited for it.
///
/// In WAL mode SQLite's writer holds a POSIX lock on byte 120 of the store's `-shm` file; Linux
/// lists POSIX locks with their process in `/proc/locks`.
enum StoreWriter {
    /// "process 1234 (grocery-dude cloud sync)", or nil when it cannot be told (another system,
    /// the lock already gone).
    static func describe(storePath: String) -> String? {
        var info = stat()
        guard stat(storePath + "-shm", &info) == 0,
              let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let inode = String(info.st_ino)
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 8239 fe:00:16229272 120 120"
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[1] == "POSIX", fields[3] == "WRITE", fields[6] == "120",
                  fields[5].split(separator: ":").last.map(String.init) == inode,
                  let pid = Int32(fields[4]) else { continue }
            return "process \(pid) (\(commandLine(of: pid)))"
        }
        return nil
    }

    /// What `ps` shows for `pid`, shortened.
    static func commandLine(of pid: Int32) -> String {
        guard pid != getpid() else { return "this process" }
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return "unknown command" }
        var words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        words[0] = URL(fileURLWithPath: words[0]).lastPathComponent
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}
