import ArgumentParser
import Foundation
import Logging
import StoreLifecycle
import TerminalUI
import ViewModels

/// `grocery-dude tui` (and no subcommand): the full-screen app.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "Open the full-screen app (the default).")
    @ParentCommand var root: GroceryDudeCommand

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw ValidationErrorMessage(
                "the full-screen app needs a terminal; use the item, unit, home and shop commands in scripts")
        }
        // The lock first: a second app on the device must not touch the store or the cloud.
        let (sandbox, logger) = try root.global.openSandbox(command: "tui")
        let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude tui")
        defer { withExtendedLifetime(lock) {} }
        // The stores are closed (checkpointed) while the lock is still held.
        defer { DeviceProcess.closeAllStores() }
        var configuration = try root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "tui")
        configuration.onNotice = nil  // curses owns the terminal; the log file has it all
        configuration.exportsInBackground = true  // the UI thread never waits on the cloud folder
        DeviceProcess.onWaitingForWriter { line in logger.notice("\(line)") }  // not over the screen
        let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: { true })
        let current = coordinator.current
        logger.info("app on the \(current.description); Using local storage: \(current.usingLocalStorage ? 1 : 0)")
        let app = AppModel(coordinator: coordinator, logger: logger)
        app.start()
        defer { app.stop() }
        try TerminalApp.run(
            app: app, logger: logger, mouse: root.global.wantsMouse,
            idleReport: IdleReport(path: EnvironmentVariables()["GROCERY_DUDE_IDLE_FILE"]))
    }
}
