import ArgumentParser
import Foundation
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
        let (sandbox, _) = try root.global.openSandbox(command: "tui")
        let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude tui")
        defer { withExtendedLifetime(lock) {} }
        let device = try root.global.openDevice(command: "tui")
        let model = ItemListViewModel(store: device.store, device: device.sandbox.device)
        let mailbox = Mailbox<SyncEvent>()
        var live: LiveSync?
        if let sync = device.sync {
            live = LiveSync(sync: sync, logger: device.logger)
            try live?.start(
                isOnline: { !device.isOffline },
                onImport: { report in
                    mailbox.post(.imported(count: report.changes.count, devices: Array(report.devices)))
                },
                onProblem: { problem in
                    device.logger.warning("\(problem)")
                    mailbox.post(.problem(problem))
                })
        }
        defer { live?.stop() }
        try TerminalApp.run(model: model, logger: device.logger, mailbox: mailbox)
    }
}
