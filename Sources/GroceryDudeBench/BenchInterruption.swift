import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a bench leaves behind when it is interrupted (Ctrl-C, `kill`, a closed terminal): nothing.
///
/// On SIGINT, SIGTERM or SIGHUP the bench stops the processes it started (``started(_:)``: a
/// latency follower runs until told to stop, writers for as many saves as they were given),
/// removes its temporary folder, and exits with 128 + the signal's number, the status a shell
/// gives a process a signal ended. Without this, every bench killed half-way left its folder in
/// the temporary directory (up to 38 MB each) and, during `latency`, a follower that never ended.
///
/// SIGKILL cannot be caught: the folder then stays, and so do the children.
final class BenchInterruption: @unchecked Sendable {
    static let shared = BenchInterruption()

    private let lock = NSLock()
    private var folder: URL?
    private var children: [Process] = []
    private var sources: [DispatchSourceSignal] = []

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

    /// A process the bench started, stopped when the bench is interrupted.
    func started(_ process: Process) {
        lock.withLock {
            children.removeAll { !$0.isRunning }
            children.append(process)
        }
    }

    private func interrupted(by number: Int32) -> Never {
        let (folder, children) = lock.withLock { (self.folder, self.children.filter(\.isRunning)) }
        for child in children { kill(child.processIdentifier, SIGTERM) }
        // Stopped before the folder goes: a child still at work could make part of it again.
        let deadline = Date().addingTimeInterval(2)
        while children.contains(where: \.isRunning), Date() < deadline { usleep(10_000) }
        for child in children where child.isRunning { kill(child.processIdentifier, SIGKILL) }
        if let folder {
            // Twice: this process's own work goes on until it exits, and may add a file while
            // the first removal walks the folder.
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: folder)
        }
        _exit(128 + number)
    }
}
