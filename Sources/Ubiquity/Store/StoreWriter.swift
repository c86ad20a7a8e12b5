import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Which process holds a store's write lock, for the message of a save that waited for it.
///
/// In WAL mode SQLite's writer holds a POSIX lock on byte 120 of the store's `-shm` file; Linux
/// lists POSIX locks with their process in `/proc/locks`.
public enum StoreWriter {
    /// "process 1234 (notes-app sync)", or nil when it cannot be told (another system,
    /// the lock already gone).
    static func describe(storePath: String) -> String? {
        var info = stat()
        guard stat(storePath + "-shm", &info) == 0 else { return nil }
        let inode = String(info.st_ino)
        // A listing read while other processes take and drop locks can miss a line (see
        // `lockListing`); the holder's lock lasts, so another look finds it.
        for _ in 0..<5 {
            guard let locks = lockListing() else { return nil }
            if let pid = writeLockHolder(in: locks, inode: inode) {
                return "process \(pid) (\(commandLine(of: pid)))"
            }
        }
        return nil
    }

    /// The process whose line in `/proc/locks` holds the WAL write lock (byte 120) of the `-shm`
    /// file with this inode.
    static func writeLockHolder(in locks: String, inode: String) -> Int32? {
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 8239 fe:00:16229272 120 120"
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[1] == "POSIX", fields[3] == "WRITE", fields[6] == "120",
                fields[5].split(separator: ":").last.map(String.init) == inode,
                let pid = Int32(fields[4])
            else { continue }
            return pid
        }
        return nil
    }

    /// `/proc/locks` as the kernel lists it now. It hands the listing out a page a `read`, and
    /// finds where the next page starts by counting lines afresh: when other processes drop
    /// locks between two reads, the lines after theirs move up and one can be missed — the
    /// holder's among them (seen on a loaded machine). ``describe(storePath:)`` looks again.
    static func lockListing() -> String? {
        try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
    }

    /// Told once per wait, after a second, which process the store waits for: a command prints
    /// it, so that a user whose command seems stuck knows why. Nil: nobody is told.
    nonisolated(unsafe) public static var onWaiting: (@Sendable (String) -> Void)?

    /// SQLite's busy handler for a store: sleeps 1 ms for the first tries, then 10 ms, says once
    /// after about a second who holds the store (``onWaiting``), and gives up after `patience`
    /// seconds.
    static func waiter(storePath: String, patience: Int) -> Database.BusyCallback {
        { tries in
            let quickTries = 10
            let triesPerSecond = 100
            if tries == quickTries + triesPerSecond, let onWaiting {
                let holder = describe(storePath: storePath) ?? "another process"
                onWaiting(
                    "waiting for \(holder), which is writing to the store \(storePath) (up to \(patience) seconds)")
            }
            guard tries < quickTries + patience * triesPerSecond else { return false }
            usleep(tries < quickTries ? 1_000 : 10_000)
            return true
        }
    }

    /// What `ps` shows for `pid`, shortened.
    static func commandLine(of pid: Int32) -> String {
        guard pid != getpid() else { return "this process" }
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else {
            return "unknown command"
        }
        var words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        words[0] = URL(fileURLWithPath: words[0]).lastPathComponent
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}
