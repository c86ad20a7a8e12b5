import Foundation

/// A `grocery-dude` process that keeps running (`cloud watch`): its standard output and error
/// read line by line as they come, waited for by content, and stopped by a signal.
public final class RunningCommand: @unchecked Sendable {
    private let process: Process
    /// What the process wrote, line by line: its own object, so that the reader threads do not
    /// keep this one alive (its `deinit` kills a process a failed test left running).
    private let lines = Lines()
    /// Left by each reader thread when its stream ends.
    private let readersDone = DispatchGroup()
    /// Signalled at each line read, at each stream's end and at the process's end: what a
    /// wait for a line or for the end looks again at.
    private let wakeup = Wakeup()

    private final class Lines: @unchecked Sendable {
        let lock = NSLock()
        var out: [String] = []
        var err: [String] = []
    }

    init(_ process: Process) throws {
        self.process = process
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let wakeup = wakeup
        process.terminationHandler = { _ in wakeup.signal() }
        try process.run()
        let lines = lines
        for reader in [
            Self.reader(output, done: readersDone, wakeup) { line in lines.lock.withLock { lines.out.append(line) } },
            Self.reader(errors, done: readersDone, wakeup) { line in lines.lock.withLock { lines.err.append(line) } },
        ] {
            readersDone.enter()
            reader.start()
        }
    }

    private static func reader(
        _ pipe: Pipe, done: DispatchGroup, _ wakeup: Wakeup, _ add: @escaping @Sendable (String) -> Void
    ) -> Thread {
        Thread {
            defer {
                done.leave()
                wakeup.signal()
            }
            let handle = pipe.fileHandleForReading
            var pending = Data()
            while case let chunk = handle.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    add(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                    wakeup.signal()
                }
            }
            if !pending.isEmpty { add(String(decoding: pending, as: UTF8.self)) }
        }
    }

    /// The lines written to standard output so far.
    public var stdoutLines: [String] { lines.lock.withLock { lines.out } }
    /// The lines written to standard error so far.
    public var stderrLines: [String] { lines.lock.withLock { lines.err } }

    /// One of the process's two output streams.
    public enum Stream: Sendable { case standardOutput, standardError }

    /// Waits until a line of `stream` (standard output unless told) satisfies `matches`, and
    /// returns it; `nil` after `timeout` seconds or when the process ended first. Each stream is
    /// read by a thread of its own: a line on one says nothing of what the other shows yet.
    public func waitForLine(
        timeout: TimeInterval = Poll.defaultTimeout, after index: Int = 0, in stream: Stream = .standardOutput,
        _ matches: (String) -> Bool
    ) -> String? {
        let read = { stream == .standardOutput ? self.stdoutLines : self.stderrLines }
        // Once the process ended and both streams are read to their end, no line comes.
        let streamsEnded = { !self.process.isRunning && self.readersDone.wait(timeout: .now()) == .success }
        let seen = try? Poll.until(
            timeout: timeout, every: 0.5, wakingOn: wakeup,
            reading: { () -> (line: String?, ended: Bool) in
                let ended = streamsEnded()  // before the lines: the last ones are read then
                return (read().dropFirst(index).first(where: matches), ended)
            }, { _ in "a line" }
        ) { $0.line != nil || $0.ended }
        return seen?.line
    }

    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` and waits up to `timeout` seconds for the process to end: its exit status,
    /// or `nil` if it is still running (then it is killed).
    public func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 60) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let ended =
            (try? Poll.until(timeout: timeout, every: 0.5, wakingOn: wakeup, "the process ended") { !process.isRunning })
            != nil
        guard ended else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        readersDone.wait()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
