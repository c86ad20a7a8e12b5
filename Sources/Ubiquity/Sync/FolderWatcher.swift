import Foundation

#if canImport(Glibc)
    import Glibc
    import TextAndFiles
#endif

/// Watches a folder tree with inotify and calls `onChange` when files appear in it, plus once
/// per `rescanInterval` for file systems that send no events (network mounts, some FUSE
/// engines). Runs on a thread of its own; `onChange` is called there, never concurrently.
public final class FolderWatcher: @unchecked Sendable {
    private let root: URL
    private let rescanInterval: TimeInterval
    private let onChange: () -> Void
    private var inotify: Int32 = -1
    private var stopPipe: [Int32] = [-1, -1]
    private var watched: [Int32: String] = [:]
    private var thread: Thread?

    public init(root: URL, rescanInterval: TimeInterval = 2, onChange: @escaping () -> Void) {
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
        onChange()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, Int32(rescanInterval * 1000))
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 { return }
            if ready > 0, descriptors[0].revents != 0 {
                let count = read(inotify, &buffer, buffer.count)
                if count > 0 { handleEvents(buffer[0..<count]) }
            }
            if !watched.values.contains(root.path) { addWatches(under: root.path) }
            onChange()
        }
    }

    /// Watches folders that appeared (a new peer's folder, a new epoch).
    private func handleEvents(_ bytes: ArraySlice<UInt8>) {
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= bytes.endIndex {
            let (wd, mask, length): (Int32, UInt32, Int) = bytes.withUnsafeBytes { raw in
                let event = raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + headerSize
            if mask & UInt32(IN_ISDIR) != 0, let parent = watched[wd], length > 0 {
                let nameBytes = bytes[nameStart..<min(nameStart + length, bytes.endIndex)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if !name.hasPrefix(".") { addWatches(under: parent + "/" + name) }
            }
            offset = nameStart + length
        }
    }
}
