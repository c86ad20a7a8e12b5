import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a bench leaves behind when it is interrupted (Ctrl-C, `kill`, a closed terminal): nothing.
///
/// On SIGINT, SIGTERM or SIGHUP the bench stops the processes it started (``started(_:)``: a
/// latency follower runs until told to stop, writers for as many saves as they were given), and
/// any it starts after; it exits at once with 128 + the signal's number, the status a shell gives
/// a process a signal ended; and its temporary folder is removed as soon as it has exited.
/// Without this, every bench killed half-way left its folder in the temporary directory (up to
/// 38 MB each) and, during `latency`, a follower that never ended.
///
/// The folder is removed by a process of its own once this one is gone: the bench's own thread
/// goes on until the exit, and made the folder again when it was removed from here first (the
/// latency bench, its writers stopped, went on to its floor and started four writers more); and
/// a large folder takes seconds to remove.
///
/// SIGKILL cannot be caught: the folder then stays, and so do the children.
final class BenchInterruption: @unchecked Sendable {
    static let shared = BenchInterruption()

    private let lock = NSLock()
    private var folder: URL?
    private var children: [Process] = []
    private var sources: [DispatchSourceSignal] = []
    private var isInterrupted = false

    /// From now on, an interruption removes `folder`.
    func removesOnInterruption(_ folder: URL) {
        lock.withLock { self.folder = folder }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in interrupted(by: number) }
            source.resume()
            lock.withLock { sources.append(source) }
        }
    }

    /// A process the bench started: stopped when the bench is interrupted, at once when it
    /// already was.
    func started(_ process: Process) {
        let tooLate = lock.withLock {
            children.removeAll { !$0.isRunning }
            children.append(process)
            return isInterrupted
        }
        if tooLate { kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs once: a second signal meanwhile (Ctrl-C pressed again) finds the first one under way.
    private func interrupted(by number: Int32) {
        let (first, folder, children) = lock.withLock {
            defer { isInterrupted = true }
            return (!isInterrupted, self.folder, self.children.filter(\.isRunning))
        }
        guard first else { return }
        for child in children { kill(child.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(2)
        while children.contains(where: \.isRunning), Date() < deadline { usleep(10_000) }
        // Any started meanwhile is in the list too (and was killed when it was added).
        for child in lock.withLock({ self.children }) where child.isRunning { kill(child.processIdentifier, SIGKILL) }
        if let folder { removeAfterExit(folder) }
        _exit(128 + number)
    }

    /// Starts a process that removes `folder` once this one has ended; removes it here when
    /// that process cannot be started.
    private func removeAfterExit(_ folder: URL) {
        let remover = Process()
        remover.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Deaf to the signals that ended this process: a closed terminal sends SIGHUP to all.
        remover.arguments = [
            "-c", "trap '' HUP INT TERM; while kill -0 \"$0\" 2>/dev/null; do sleep 0.05; done; rm -rf -- \"$1\"",
            String(getpid()), folder.path,
        ]
        remover.standardInput = FileHandle.nullDevice
        remover.standardOutput = FileHandle.nullDevice
        remover.standardError = FileHandle.nullDevice
        do {
            try remover.run()
        } catch {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
