import ArgumentParser
import Foundation
import Logging
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
                Every other list of the device is kept in sync too, a list at a time when its files change \
                (lists made meanwhile included). Prints a line for each import ("3 changes from kitchen", \
                "Trip: 2 changes from phone" for another list), each change of store, each merge and each \
                problem. While the device is shopping (shopping start), keeps that fresh: a new note every minute, \
                which other devices show for 3 minutes (so a watch that is killed stops showing). Holds the device as the app does, so not while the app runs on it. Ctrl-C \
                or SIGTERM stops it.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print one JSON object a line (imports, changes of store, merges) on standard output.") var json =
            false

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
            let configuration = try root.global.storeConfiguration(
                sandbox: sandbox, logger: logger, command: "cloud watch")
            let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: { true })
            guard coordinator.current.role != .local else {
                if (try? DeviceSettings.load(from: sandbox))?.account == nil {
                    throw ValidationErrorMessage(
                        "this device is signed out: nothing to watch (grocery-dude account sign-in NAME)")
                }
                throw ValidationErrorMessage(
                    "cloud sync is off on this device: nothing to watch (grocery-dude cloud enable)")
            }
            let out = WatchOutput(json: json)
            let wake = DispatchSemaphore(value: 0)
            let stop = StopSignals([SIGINT, SIGTERM]) { wake.signal() }
            out.store(
                coordinator.current.description.description, usingLocalStorage: coordinator.current.usingLocalStorage)
            // Imports and problems arrive on the background's threads; WatchOutput writes a
            // whole line at a time from any thread. Changes of store are told after poll().
            coordinator.subscribe { message in
                switch message {
                case .imported(let imported):
                    out.imported(imported)
                case .problem(let problem):
                    logger.warning("\(problem)")
                    out.problem(problem)
                case .otherListSynced(let visit):
                    out.otherList(visit)
                    if let problem = visit.problem { logger.warning("list \(visit.list.name): \(problem)") }
                case .listGone(let list, let survivor):
                    out.listGone(list, survivor: survivor)
                case .storesWillChange, .storesDidChange, .storesChangePostponed, .seedProgress:
                    break
                }
            }
            coordinator.startBackgroundSync(wake: { wake.signal() })
            defer { coordinator.stopBackgroundSync() }
            var lastMerge = Date()
            Self.resumeMerge(coordinator, out)
            var lastFailure: String?
            var lastRefreshFailure: String?
            while !stop.requested && !out.isClosed {
                // Transitions made by other terminals: the settings file and the epoch markers, once a second.
                _ = wake.wait(timeout: .now() + 1)
                guard !stop.requested else { break }
                do {
                    if try coordinator.poll() {
                        out.store(
                            coordinator.current.description.description,
                            usingLocalStorage: coordinator.current.usingLocalStorage)
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
                // While this device is shopping (`shopping start`), its presence stays fresh.
                do {
                    try coordinator.current.household?.refreshIfShopping()
                    lastRefreshFailure = nil
                } catch {
                    let line = "cannot keep this device's shopping note fresh: \(ErrorText.reason(error))"
                    if line != lastRefreshFailure { out.problem(line) }
                    lastRefreshFailure = line
                }
            }
        }

        /// Finishes a merge with the cloud that a crash or going offline interrupted, as the
        /// app does when it starts: once the device is on its cloud store.
        static func resumeMerge(_ coordinator: StoreCoordinator, _ out: WatchOutput) {
            guard coordinator.pendingSeedSource != nil, coordinator.current.role == .cloud else { return }
            do {
                guard let seed = try coordinator.resumeSeed() else { return }
                out.merge(
                    finished: seed.finished,
                    seed.waiting.map { "merging with the cloud: \($0)" } ?? "merged with the cloud: \(seed.objectsText)"
                )
            } catch {
                out.problem("merge with the cloud not finished: \(ErrorText.reason(error))")
            }
        }
    }
}
