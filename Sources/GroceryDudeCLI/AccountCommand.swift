import ArgumentParser
import Foundation
import GroceryModel
import Logging
import StoreLifecycle

/// `grocery-dude account …`: which account (cloud container) the device is signed in to.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Sign the device in to an account, or out.",
        subcommands: [SignIn.self, SignOut.self, Status.self])

    struct SignIn: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign-in", abstract: "Sign in to an account.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The account's name: a folder of the cloud folder.", completion: CompletionValues.accountNames)
        var name: String

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "account sign-in")
            let account = try CloudNames.checkedAccount(name)
            var settings = try DeviceSettings.load(from: sandbox)
            settings.account = account
            // A running app notices, and moves to the account's store.
            try StoreCoordinator.saveSettings(
                settings, root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "account sign-in"))
            logger.info("signed in to account \(account)")
            print(
                "Signed in to account \(account.debugDescription)\(settings.cloudEnabled ? "" : " (cloud sync is off: grocery-dude cloud enable)")"
            )
        }
    }

    struct SignOut: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-out", abstract: "Sign out: the device uses its local store; the account's store is kept."
        )
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "account sign-out")
            var settings = try DeviceSettings.load(from: sandbox)
            guard let account = settings.account else {
                print("Not signed in.")
                return
            }
            settings.account = nil
            try StoreCoordinator.saveSettings(
                settings, root.global.storeConfiguration(sandbox: sandbox, logger: logger, command: "account sign-out"))
            logger.info("signed out of account \(account)")
            print("Signed out of account \(account.debugDescription); this device uses its local store.")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let (sandbox, _) = try root.global.openSandbox(command: "account status")
            let settings = try DeviceSettings.load(from: sandbox)
            let peer = try sandbox.peerID()
            if json {
                var writer = JSONObjectWriter()
                writer.add("account", .string(settings.account))
                writer.add("signedIn", .bool(settings.account != nil))
                writer.add("cloudEnabled", .bool(settings.cloudEnabled))
                writer.add("device", .string(sandbox.device))
                writer.add("peerID", .string(peer))
                print(writer.text)
            } else {
                print("Account:  \(settings.account ?? "(signed out)")")
                print("Cloud:    \(settings.cloudEnabled ? "enabled" : "disabled")")
                print("Device:   \(sandbox.device) (peer \(peer))")
            }
        }
    }
}
