import Foundation
import StoreLifecycle

/// What `cloud watch` prints, from any thread, a whole line at a time, flushed at once (the
/// output is often a pipe).
final class WatchOutput: @unchecked Sendable {
    private let json: Bool
    private let lock = NSLock()
    /// The last problem told: the live watcher says a lasting failure at every round.
    private var lastProblem: String?
    private var closed = false

    init(json: Bool) {
        self.json = json
        // A reader that went away (`cloud watch | head -1`) ends the loop, not the process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether standard output was closed by its reader: time to stop.
    var isClosed: Bool { lock.withLock { closed } }

    func imported(_ imported: BackgroundImport) {
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("imported"))
            writer.add("at", .date(Date()))
            writer.add("changes", .integer(imported.count))
            writer.add("inserted", .integer(imported.inserted))
            writer.add("updated", .integer(imported.updated))
            writer.add("deleted", .integer(imported.deleted))
            writer.add("devices", .raw("[" + imported.devices.map(JSONWriter.quoted).joined(separator: ", ") + "]"))
            write(writer.line)
        } else {
            write("\(Self.clock()) \(imported.summary)\n")
        }
    }

    func store(_ description: String, usingLocalStorage: Bool) {
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("store"))
            writer.add("at", .date(Date()))
            writer.add("store", .string(description))
            writer.add("using_local_storage", .bool(usingLocalStorage))
            write(writer.line)
        } else {
            write("\(Self.clock()) on the \(description); Using local storage: \(usingLocalStorage ? 1 : 0)\n")
        }
    }

    func merge(finished: Bool, _ words: String) {
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("merge"))
            writer.add("at", .date(Date()))
            writer.add("finished", .bool(finished))
            writer.add("message", .string(words))
            write(writer.line)
        } else {
            write("\(Self.clock()) \(words)\n")
        }
    }

    /// Problems go to standard error, in both forms; the same one twice in a row is told once.
    func problem(_ line: String) {
        guard lock.withLock({ defer { lastProblem = line }; return lastProblem != line }) else { return }
        lock.withLock { try? FileHandle.standardError.write(contentsOf: Data("\(Self.clock()) warning: \(line)\n".utf8)) }
    }

    /// A line on standard output; when its reader is gone, ``isClosed`` says so.
    private func write(_ text: String) {
        lock.withLock {
            do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch { closed = true }
        }
    }

    private static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
