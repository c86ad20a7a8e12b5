import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle

/// `grocery-dude backup FOLDER`: a copy of the device that `restore` can put back.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up this device: its stores (consistent even while the app runs), identity and settings.",
        discussion: """
            Writes a new folder. Restore it with `grocery-dude restore FOLDER` on this device \
            (or on a new machine, with the same --device). Copying the data folder by hand while \
            the app runs may catch a store half-written; this never does.
            """)
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The folder to write (it must not exist).", completion: .directory) var folder: String

    func run() throws {
        let sandbox = try DeviceSandbox(
            dataDirectory: root.global.resolvedDataDirectory(), device: root.global.resolvedDevice())
        let target = URL(fileURLWithPath: (folder as NSString).expandingTildeInPath)
        let backup = try DeviceBackup.write(sandbox, to: target)
        let count = backup.manifest.stores.count
        print(
            "Backed up device \(sandbox.device.debugDescription) to \(target.path): \(count) store\(count == 1 ? "" : "s")."
        )
    }
}

/// `grocery-dude restore FOLDER`: puts a backup back, keeping the device's folder aside.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore this device from a backup made by `grocery-dude backup`.",
        discussion: """
            The device's folder as it is now is moved aside, whole, to <data-dir>/replaced-devices/. \
            With cloud sync on, what the device published after the backup comes back at once \
            from the cloud folder, and its new changes follow it. Without --yes, asks first.
            """)
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The backup folder.", completion: .directory) var folder: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let sandbox = try DeviceSandbox(
            dataDirectory: root.global.resolvedDataDirectory(), device: root.global.resolvedDevice())
        let backup = try DeviceBackup(reading: URL(fileURLWithPath: (folder as NSString).expandingTildeInPath))
        try backup.check(for: sandbox)
        try sandbox.prepare()
        let created = Timestamp.string(backup.manifest.created)
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationErrorMessage(
                    "restoring replaces device \(sandbox.device.debugDescription) with its backup of \(created); pass --yes to do it from a script"
                )
            }
            print(
                "Restore device \(sandbox.device.debugDescription) to its backup of \(created)? Its folder as it is now is kept aside. [y/N] ",
                terminator: "")
            fflush(nil)
            guard ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "") else {
                throw ValidationErrorMessage("not confirmed; nothing was changed")
            }
        }
        let keptAside: URL?
        do {
            // Not while the app runs on the device: it would go on writing in the old folder.
            let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude restore")
            keptAside = try backup.restore(into: sandbox)
            withExtendedLifetime(lock) {}
        }
        let device = try root.global.openDevice(command: "restore")
        device.coordinator.journal(event: "restored", detail: "from the backup \(backup.folder.path) of \(created)")
        print("Restored device \(sandbox.device.debugDescription) from its backup of \(created).")
        if let keptAside { print("Its folder as it was is kept in \(keptAside.path).") }
        if let sync = device.sync {
            let caughtUp = try sync.watermark(of: device.coordinator.configuration.peer)
            print("Cloud sync is on: the device is up to date with the cloud folder (its own logs up to \(caughtUp)).")
        }
    }
}
