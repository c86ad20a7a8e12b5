import ArgumentParser
import Foundation
import StoreLifecycle
import TextAndFiles

extension CloudCommand {
    /// `grocery-dude cloud watch`: the running app's background sync, without its screen.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Stay in sync until stopped, as the running app does, with a line for each import.",
            discussion: """
                Imports other devices' changes as soon as their logs land in the cloud folder, exports what \
                waited, finishes the one-time setup and an interrupted merge with the cloud, and follows what \
                other terminals change (sign out, disable, start over, offline): the full-screen app's \
                background sync without the screen, for a device nobody sits at or to see sync at work. \
                Prints a line for each import ("3 changes from kitchen"), each change of store, each merge \
                and each problem. Holds the device as the app does, so not while the app runs on it. Ctrl-C \
                or SIGTERM stops it.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print one JSON object a line (imports and changes of store) on standard output.") var json = false

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud watch")
            // As the app: one process at a time runs a device's background sync.
            let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude cloud watch")
            defer { withExtendedLifetime(lock) {} }
            let configuration = try root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "cloud watch")
            let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: { true })
            guard coordinator.current.role != .local else {
                throw ValidationErrorMessage("cloud sync is off on this device: nothing to watch (grocery-dude cloud enable)")
            }
            let out = WatchOutput(json: json)
            let wake = DispatchSemaphore(value: 0)
            let stop = StopSignals([SIGINT, SIGTERM]) { wake.signal() }
            out.store(coordinator.current.description.description, usingLocalStorage: coordinator.current.usingLocalStorage)
            coordinator.startBackgroundSync(
                wake: { wake.signal() },
                onImport: { imported in out.imported(imported) },
                onProblem: { problem in
                    logger.warning("\(problem)")
                    out.problem(problem)
                })
            defer { coordinator.stopBackgroundSync() }
            Self.resumeMerge(coordinator, out)
            var lastFailure: String?
            while !stop.requested {
                // Transitions made by other terminals: the settings file and the epoch markers, once a second.
                _ = wake.wait(timeout: .now() + 1)
                guard !stop.requested else { break }
                do {
                    if try coordinator.poll() {
                        out.store(coordinator.current.description.description, usingLocalStorage: coordinator.current.usingLocalStorage)
                        Self.resumeMerge(coordinator, out)
                    }
                    lastFailure = nil
                } catch {
                    let line = "cannot follow the device's settings: \(error)"
                    if line != lastFailure { out.problem(line) }
                    lastFailure = line
                }
            }
        }

        /// Finishes a merge with the cloud that a crash or going offline interrupted, as the
        /// app does when it starts: once the device is on its cloud store.
        static func resumeMerge(_ coordinator: StoreCoordinator, _ out: WatchOutput) {
            guard coordinator.pendingSeedSource != nil, coordinator.current.role == .cloud else { return }
            do {
                guard let seed = try coordinator.resumeSeed() else { return }
                out.merge(finished: seed.finished, seed.waiting.map { "merging with the cloud: \($0)" } ?? "merged with the cloud: \(seed.objectsText)")
            } catch {
                out.problem("merge with the cloud not finished: \(ErrorText.reason(error))")
            }
        }
    }
}

/// What `cloud watch` prints, from any thread, a whole line at a time, flushed at once (the
/// output is often a pipe).
final class WatchOutput: @unchecked Sendable {
    private let json: Bool
    private let lock = NSLock()

    init(json: Bool) { self.json = json }

    func imported(_ imported: BackgroundImport) {
        let changes = imported.changeCounts
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("imported"))
            writer.add("at", .date(Date()))
            writer.add("changes", .integer(changes.total))
            writer.add("inserted", .integer(changes.inserted))
            writer.add("updated", .integer(changes.updated))
            writer.add("deleted", .integer(changes.deleted))
            writer.add("devices", .raw("[" + imported.devices.map(JSONWriter.quoted).joined(separator: ", ") + "]"))
            write(writer.line, to: FileHandle.standardOutput)
        } else {
            write("\(Self.clock()) \(imported.summary)\n", to: FileHandle.standardOutput)
        }
    }

    func store(_ description: String, usingLocalStorage: Bool) {
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("store"))
            writer.add("at", .date(Date()))
            writer.add("store", .string(description))
            writer.add("using_local_storage", .bool(usingLocalStorage))
            write(writer.line, to: FileHandle.standardOutput)
        } else {
            write("\(Self.clock()) on the \(description); Using local storage: \(usingLocalStorage ? 1 : 0)\n", to: FileHandle.standardOutput)
        }
    }

    func merge(finished: Bool, _ words: String) {
        if json {
            var writer = JSONObjectWriter()
            writer.add("event", .string("merge"))
            writer.add("at", .date(Date()))
            writer.add("finished", .bool(finished))
            writer.add("message", .string(words))
            write(writer.line, to: FileHandle.standardOutput)
        } else {
            write("\(Self.clock()) \(words)\n", to: FileHandle.standardOutput)
        }
    }

    /// Problems go to standard error, in both forms.
    func problem(_ line: String) {
        write("\(Self.clock()) warning: \(line)\n", to: FileHandle.standardError)
    }

    private func write(_ text: String, to handle: FileHandle) {
        lock.withLock { handle.write(Data(text.utf8)) }
    }

    private static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// Turns the signals into a flag and a call, so that a loop can stop between two rounds
/// instead of the process dying in the middle of one.
final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var sources: [DispatchSourceSignal] = []

    init(_ signals: [Int32], then: @escaping @Sendable () -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.withLock { stopped = true }
                then()
            }
            source.resume()
            sources.append(source)
        }
    }

    var requested: Bool { lock.withLock { stopped } }
}
