import Foundation

#if canImport(Glibc)
    import Glibc
    import TextAndFiles
#endif

/// Watches a folder tree with inotify and calls `onChange` when files appear in it, plus once
/// per `rescanInterval` for file systems that send no events (network mounts, some FUSE
/// engines). Runs on a thread of its own; `onChange` is called there, never concurrently.
/// It tells which files woke it (``FolderEvents``), so that a caller can read just those.
public final class FolderWatcher: @unchecked Sendable {
    private let root: URL
    private let rescanInterval: TimeInterval
    private let onChange: (FolderEvents) -> Void
    private var inotify: Int32 = -1
    private var stopPipe: [Int32] = [-1, -1]
    private var watched: [Int32: String] = [:]
    private var thread: Thread?

    public init(root: URL, rescanInterval: TimeInterval = 2, onChange: @escaping (FolderEvents) -> Void) {
        self.root = root
        self.rescanInterval = rescanInterval
        self.onChange = onChange
    }

    deinit { stop() }

    /// Starts watching. Calls `onChange` once at once. A folder that is not there yet is
    /// looked for at every rescan, and watched once it appears.
    public func start() throws {
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0, pipe(&stopPipe) == 0 else {
            throw FileError.unwritable(path: root.path, reason: "cannot watch: \(String(cString: strerror(errno)))")
        }
        addWatches(under: root.path)
        let thread = Thread { [self] in run() }
        thread.name = "folder-watcher"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread and closes the descriptors.
    public func stop() {
        guard inotify >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
        while let thread, !thread.isFinished { usleep(1000) }
        close(inotify)
        close(stopPipe[0])
        close(stopPipe[1])
        inotify = -1
    }

    private func addWatches(under path: String) {
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        let descriptor = inotify_add_watch(inotify, path, mask)
        guard descriptor >= 0 else { return }
        watched[descriptor] = path
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for child in children where !child.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let full = path + "/" + child
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
                addWatches(under: full)
            }
        }
    }

    private func run() {
        onChange(FolderEvents(files: nil))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, Int32(rescanInterval * 1000))
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 { return }
            // A wake-up with no event to read is the rescan: no list of files.
            var events = FolderEvents(files: nil)
            if ready > 0, descriptors[0].revents != 0 {
                let count = read(inotify, &buffer, buffer.count)
                if count > 0 { events = handleEvents(buffer[0..<count]) }
            }
            if !watched.values.contains(root.path) {
                addWatches(under: root.path)
                events = FolderEvents(files: nil)
            }
            onChange(events)
        }
    }

    /// Watches folders that appeared (a new peer's folder, a new epoch), and lists the files
    /// the events name, by their path under the root; no list when a folder appeared (the files
    /// made in it before its watch began sent no event) or the kernel's queue overflowed.
    private func handleEvents(_ bytes: ArraySlice<UInt8>) -> FolderEvents {
        var files: [String]? = []
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        let rootPrefix = root.path + "/"
        while offset + headerSize <= bytes.endIndex {
            let (wd, mask, length): (Int32, UInt32, Int) = bytes.withUnsafeBytes { raw in
                let event = raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + headerSize
            let nameBytes = bytes[nameStart..<min(nameStart + length, bytes.endIndex)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                files = nil
            } else if let parent = watched[wd], length > 0 {
                if mask & UInt32(IN_ISDIR) != 0 {
                    if !name.hasPrefix(".") { addWatches(under: parent + "/" + name) }
                    files = nil
                } else if parent == root.path {
                    files?.append(name)
                } else if parent.hasPrefix(rootPrefix) {
                    files?.append(String(parent.dropFirst(rootPrefix.count)) + "/" + name)
                } else {
                    files = nil
                }
            } else if mask & UInt32(IN_IGNORED) == 0 {
                // An event of a watch it does not know, or with no name: it cannot say what changed.
                files = nil
            }
            offset = nameStart + length
        }
        return FolderEvents(files: files)
    }
}

/// What woke a ``FolderWatcher``.
public struct FolderEvents: Sendable, Equatable {
    /// The files created, moved in or closed after writing, by their path under the watched
    /// folder ("peer/0000000012.gdlog"), in the order told, a file possibly more than once; nil
    /// when the watcher cannot say what changed: its first call, a rescan, a folder that
    /// appeared, events lost to a full queue. An empty list: only events that change nothing
    /// a reader would see (a watch removed).
    public let files: [String]?
}
