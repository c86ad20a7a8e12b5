import ArgumentParser
import Foundation
import StoreLifecycle
import TerminalUI
import Ubiquity
import ViewModels

/// `grocery-dude tui` (and no subcommand): the full-screen app.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the full-screen app (the default).")
    @ParentCommand var root: GroceryDudeCommand

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw ValidationErrorMessage("the full-screen app needs a terminal; use the item, unit, home and shop commands in scripts")
        }
        // The lock first: a second app on the device must not touch the store or the cloud.
        let (sandbox, logger) = try root.global.openSandbox(command: "tui")
        let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude tui")
        defer { withExtendedLifetime(lock) {} }
        let coordinator = try StoreCoordinator(
            configuration: root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "tui"),
            claimDevice: { true })
        let current = coordinator.current
        logger.info("app on the \(current.description); Using local storage: \(current.usingLocalStorage ? 1 : 0)")
        let model = ItemListViewModel(store: current.store, device: sandbox.device)
        if current.role == .fallback { model.show("Setting up the cloud store… (Using local storage: 1)") }
        let mailbox = Mailbox<SyncEvent>()
        // The UI thread runs every transition (in `poll`), so the view model hears of it there.
        coordinator.observe { [unowned coordinator] notification in
            switch notification {
            case .storesWillChange(let change): model.storeWillChange("\(change.summary)…")
            case .storesDidChange(let change): model.storeDidChange(to: coordinator.current.store, message: change.summary)
            case .didImportContentChanges: break  // posted to the mailbox by onImport
            }
        }
        coordinator.startBackgroundSync(
            wake: { mailbox.wake.wake() },
            onImport: { report in mailbox.post(.imported(count: report.changes.count, devices: Array(report.devices))) },
            onProblem: { problem in
                logger.warning("\(problem)")
                mailbox.post(.problem(problem))
            })
        defer { coordinator.stopBackgroundSync() }
        // A merge with the cloud that a crash or going offline interrupted goes on behind the list.
        coordinator.resumeSeedInBackground(
            progress: { done, total in mailbox.post(.problem("Merging with the cloud: \(done)/\(total)")) },
            finished: { result in
                switch result {
                case .success(let seed): mailbox.post(.problem(seed.waiting.map { "Merging with the cloud: \($0)" } ?? "Merged with the cloud"))
                case .failure(let error): mailbox.post(.problem("Merge with the cloud not finished: \(ErrorText.reason(error))"))
                }
            })
        // The list appears: duplicates are merged in the background (DESIGN §8: cheap when
        // there is nothing to do); the list refreshes through the change token.
        let deduplicator = Deduplicator(store: current.store.objects)
        Thread.detachNewThread {
            do {
                let report = try deduplicator.run()
                if report.mergedCount > 0 { mailbox.post(.problem("Merged \(report.mergedCount) duplicate(s)")) }
            } catch {
                logger.warning("deduplication failed: \(ErrorText.reason(error))")
            }
        }
        var lastFailure: String?
        try TerminalApp.run(model: model, logger: logger, mailbox: mailbox) {
            do {
                let changed = try coordinator.poll()
                lastFailure = nil
                return changed
            } catch {
                // Tried again at every tick (a damaged settings file, an unwritable folder): said once.
                let reason = ErrorText.reason(error)
                guard reason != lastFailure else { return false }
                lastFailure = reason
                logger.error("store transition failed: \(reason)")
                model.show("Store change failed: \(reason)")
                return true
            }
        }
    }
}
