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
        event(
            "imported",
            [
                ("changes", .integer(imported.count)), ("inserted", .integer(imported.inserted)),
                ("updated", .integer(imported.updated)), ("deleted", .integer(imported.deleted)),
                ("devices", .raw("[" + imported.devices.map(JSONWriter.quoted).joined(separator: ", ") + "]")),
            ], text: imported.summary)
    }

    /// Another list of the device brought up to date: its imports, its exports, its problem.
    func otherList(_ visit: ListVisit) {
        if let imported = visit.imported {
            event(
                "imported",
                [
                    ("list", .string(visit.list.name)), ("store_name", .string(visit.list.storeName)),
                    ("changes", .integer(imported.count)), ("inserted", .integer(imported.inserted)),
                    ("updated", .integer(imported.updated)), ("deleted", .integer(imported.deleted)),
                    ("devices", .raw("[" + imported.devices.map(JSONWriter.quoted).joined(separator: ", ") + "]")),
                ], text: "\(visit.list.name): \(imported.summary)")
        }
        if visit.exported > 0 {
            event(
                "exported",
                [
                    ("list", .string(visit.list.name)), ("store_name", .string(visit.list.storeName)),
                    ("logs", .integer(visit.exported)),
                ],
                text: "\(visit.list.name): exported \(visit.exported) log\(visit.exported == 1 ? "" : "s")")
        }
        if let problem = visit.problem { self.problem("\(visit.list.name): \(problem)") }
    }

    /// The list watched was removed or merged away on another device.
    func listGone(_ list: NamedList, survivor: NamedList?) {
        let by = list.removedBy.map { " by \($0)" } ?? ""
        let words =
            survivor.map {
                "the list \(list.name) was merged into \($0.name)\(by); watch it with --list \($0.storeName)"
            }
            ?? "the list \(list.name) was removed\(by)"
        event(
            "listGone",
            [
                ("list", .string(list.name)), ("store_name", .string(list.storeName)),
                ("survivor", .string(survivor?.storeName)),
            ], text: words)
    }

    func store(_ description: String, usingLocalStorage: Bool) {
        event(
            "store", [("store", .string(description)), ("using_local_storage", .bool(usingLocalStorage))],
            text: "on the \(description); Using local storage: \(usingLocalStorage ? 1 : 0)")
    }

    func merge(finished: Bool, _ words: String) {
        event("merge", [("finished", .bool(finished)), ("message", .string(words))], text: words)
    }

    /// One event: a JSON object a line (`event`, `at`, then `fields`), or the time and `text`.
    private func event(_ name: String, _ fields: [(String, JSONWriter.Value)], text: String) {
        guard json else { return write("\(Self.clock()) \(text)\n") }
        var writer = JSONObjectWriter()
        writer.add("event", .string(name))
        writer.add("at", .date(Date()))
        for (key, value) in fields { writer.add(key, value) }
        write(writer.line)
    }

    /// Problems go to standard error, in both forms; the same one twice in a row is told once.
    func problem(_ line: String) {
        guard
            lock.withLock({
                defer { lastProblem = line }
                return lastProblem != line
            })
        else { return }
        lock.withLock {
            try? FileHandle.standardError.write(contentsOf: Data("\(Self.clock()) warning: \(line)\n".utf8))
        }
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
