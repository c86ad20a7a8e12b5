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
        @Flag(help: "Print one JSON object a line (imports, changes of store, merges) on standard output.") var json = false

        /// How often an interrupted merge that could not finish (offline) is tried again.
        static let mergeRetryInterval: TimeInterval = 30

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud watch")
            // As the app: one process at a time runs a device's background sync.
            let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude cloud watch")
            defer { withExtendedLifetime(lock) {} }
            // The stores are closed (their write-ahead logs checkpointed) while the lock is
            // still held: no other process may move them meanwhile.
            defer { DeviceProcess.closeAllStores() }
            let configuration = try root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "cloud watch")
            let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: { true })
            guard coordinator.current.role != .local else {
                if (try? DeviceSettings.load(from: sandbox))?.account == nil {
                    throw ValidationErrorMessage("this device is signed out: nothing to watch (grocery-dude account sign-in NAME)")
                }
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
            var lastMerge = Date()
            Self.resumeMerge(coordinator, out)
            var lastFailure: String?
            while !stop.requested && !out.isClosed {
                // Transitions made by other terminals: the settings file and the epoch markers, once a second.
                _ = wake.wait(timeout: .now() + 1)
                guard !stop.requested else { break }
                do {
                    if try coordinator.poll() {
                        out.store(coordinator.current.description.description, usingLocalStorage: coordinator.current.usingLocalStorage)
                        lastMerge = Date()
                        Self.resumeMerge(coordinator, out)
                    } else if Date().timeIntervalSince(lastMerge) >= Self.mergeRetryInterval {
                        lastMerge = Date()
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

    /// Problems go to standard error, in both forms; the same one twice in a row is told once.
    func problem(_ line: String) {
        guard lock.withLock({ defer { lastProblem = line }; return lastProblem != line }) else { return }
        write("\(Self.clock()) warning: \(line)\n", to: FileHandle.standardError)
    }

    private func write(_ text: String, to handle: FileHandle) {
        lock.withLock {
            do { try handle.write(contentsOf: Data(text.utf8)) } catch { closed = true }
        }
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
                // A second signal while the first is being honoured (a long merge, a baseline
                // being written) ends the process at once, as it would without this handler.
                if lock.withLock({ defer { stopped = true }; return stopped }) {
                    signal(number, SIG_DFL)
                    raise(number)
                }
                then()
            }
            source.resume()
            sources.append(source)
        }
    }

    var requested: Bool { lock.withLock { stopped } }
}
