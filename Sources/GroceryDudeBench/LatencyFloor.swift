import Foundation
import TextAndFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The floor of ``Latency``, measured in the same run: what the disk and the kernel take to
/// carry a change from one process to another with no engine at all. As many writer processes,
/// at the same rate, each commit the change durably as a save does (appended to a journal file of
/// their own and `fdatasync`ed: the engine's saves are `synchronous = FULL`, a WAL append and its
/// sync), then publish a file the size of the engine's logs the way a log is published
/// (``AtomicFile/create(_:at:)``: an unnamed file where the file system allows, fsync, a link
/// into place, fsync of the folder), and a watcher in the leader notes when inotify tells of
/// each new name. A change's floor latency: from the start of its publication to that event. No store is written and
/// none is read: what the engine adds on both sides (the save, the outbox, the import) is the
/// difference between the two.
enum LatencyFloor {
    struct Figures {
        let p50: Double, p99: Double, max: Double, arrived: Int, sent: Int
    }

    /// The median size of the logs under `cloud` (the engine's pass wrote one a save), or the
    /// size of a one-item log when there is none.
    static func medianLogSize(in cloud: URL) -> Int {
        let files =
            FileManager.default.enumerator(at: cloud, includingPropertiesForKeys: [.fileSizeKey])?.compactMap {
                $0 as? URL
            } ?? []
        let sizes = files.filter { $0.pathExtension == "gdlog" }.compactMap {
            try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize
        }
        return sizes.isEmpty ? 520 : sizes.sorted()[sizes.count / 2]
    }

    static func run(folder: URL, writers: Int, changes: Int, rate: Double, fileSize: Int) throws -> Figures {
        let names = (1...writers).map { "f\($0)" }
        for name in names {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let watcher = try Watcher(folder: folder, names: names)
        let start = GroceryDudeBench.now() + 1
        let processes = try names.map { name in
            try Latency.spawn([
                "floor-write", folder.path, name, String(changes), String(rate), String(start), String(fileSize),
            ])
        }
        let began = Latency.beginnings(of: processes)
        for process in processes { process.process.waitUntilExit() }
        // Every event is in by now but for the last few: a second for them.
        let deadline = GroceryDudeBench.now() + 1
        while watcher.seen.count < began.count, GroceryDudeBench.now() < deadline { usleep(10_000) }
        let seen = watcher.stop()
        let latencies = began.compactMap { name, started in seen[name].map { ($0 - started) * 1000 } }
        return Figures(
            p50: GroceryDudeBench.percentile(latencies, 0.5), p99: GroceryDudeBench.percentile(latencies, 0.99),
            max: latencies.max() ?? .nan, arrived: latencies.count, sent: began.count)
    }

    /// A floor writer: publishes `count` files of `size` bytes into `folder/name`, `rate` a second from `start`,
    /// paced and reported as ``Latency``'s writers are.
    static func write(folder: URL, name: String, count: Int, rate: Double, start: Double, size: Int) throws {
        let payload = Data(repeating: UInt8(ascii: "x"), count: size)
        let journal = open(folder.appendingPathComponent("\(name).journal").path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard journal >= 0 else {
            throw BenchFailure("cannot open the floor's journal: \(String(cString: strerror(errno)))")
        }
        defer { close(journal) }
        try Latency.paced(name, count: count, rate: rate, start: start) { index in
            let written = payload.withUnsafeBytes { Glibc.write(journal, $0.baseAddress, $0.count) }
            guard written == payload.count, fdatasync(journal) == 0 else {
                throw BenchFailure("cannot commit to the floor's journal: \(String(cString: strerror(errno)))")
            }
            _ = try AtomicFile.create(payload, at: folder.appendingPathComponent("\(name)/\(index).log"))
        }
    }

    /// Notes the time inotify tells of each file linked into the writers' folders, keyed
    /// "<writer>-<index>", on a thread of its own.
    final class Watcher: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [String: Double] = [:]
        private var stopped = false
        private let inotify: Int32
        private var thread: Thread?

        init(folder: URL, names: [String]) throws {
            inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard inotify >= 0 else { throw BenchFailure("inotify: \(String(cString: strerror(errno)))") }
            var writerOf: [Int32: String] = [:]
            for name in names {
                let descriptor = inotify_add_watch(
                    inotify, folder.appendingPathComponent(name).path, UInt32(IN_CREATE | IN_MOVED_TO))
                guard descriptor >= 0 else {
                    let reason = String(cString: strerror(errno))
                    close(inotify)
                    throw BenchFailure("inotify: \(reason)")
                }
                writerOf[descriptor] = name
            }
            let watched = writerOf
            let thread = Thread { [self] in watch(watched) }
            thread.name = "floor-watcher"
            self.thread = thread
            thread.start()
        }

        var seen: [String: Double] { lock.withLock { times } }

        /// Stops watching; returns what was seen.
        func stop() -> [String: Double] {
            lock.withLock { stopped = true }
            while let thread, !thread.isFinished { usleep(1000) }
            close(inotify)
            return seen
        }

        private func watch(_ writerOf: [Int32: String]) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            while !lock.withLock({ stopped }) {
                guard poll(&descriptor, 1, 50) > 0 else { continue }
                let count = read(inotify, &buffer, buffer.count)
                let now = GroceryDudeBench.now()
                guard count > 0 else { continue }
                var arrived: [String] = []
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let (wd, length) = buffer.withUnsafeBytes { raw in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.wd, Int(event.len))
                    }
                    let nameBytes = buffer[(offset + headerSize)..<min(offset + headerSize + length, count)].prefix {
                        $0 != 0
                    }
                    let file = String(decoding: nameBytes, as: UTF8.self)
                    // The published name, not a temporary file it was written as (where one is made).
                    if !file.hasPrefix("."), file.hasSuffix(".log"), let writer = writerOf[wd] {
                        arrived.append("\(writer)-\(file.dropLast(4))")
                    }
                    offset += headerSize + length
                }
                lock.withLock { for key in arrived where times[key] == nil { times[key] = now } }
            }
        }
    }
}
