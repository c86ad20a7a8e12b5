import ArgumentParser
import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

extension CloudCommand {
    /// `grocery-dude cloud enable [--merge | --no-merge]`: the "Enable cloud sync" setting turned on,
    /// with Apple's "Merge with Cloud?" when the device has local data.
    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable", abstract: "Turn cloud sync on for this device.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Copy this device's local data into the account's cloud store.") var merge = false
        @Flag(name: .customLong("no-merge"), help: "Leave this device's local data in its local store.") var noMerge =
            false

        func validate() throws {
            if merge && noMerge { throw ValidationError("pass --merge or --no-merge, not both") }
        }

        func run() throws {
            let global = root.global
            let (sandbox, logger) = try global.openSandbox(command: "cloud enable")
            let configuration = try global.storeConfiguration(sandbox: sandbox, logger: logger, command: "cloud enable")
            let before = try DeviceSettings.load(from: sandbox)
            guard let account = before.account else {
                throw ValidationErrorMessage(
                    "this device is signed out; sign in first: grocery-dude account sign-in NAME")
            }
            let localItems = try StoreCoordinator.localData(configuration)
            if !FileManager.default.fileExists(atPath: configuration.localStoreURL.path) {
                logger.info("no local store: migration to the cloud skipped")
            }
            if before.cloudEnabled {
                // Sync is on and the local data was not merged ("Don't Merge"): merge it now.
                if let count = localItems, merge {
                    let device = try global.openDevice(command: "cloud enable --merge")
                    guard device.coordinator.current.role == .cloud else {
                        throw ValidationErrorMessage(
                            "the cloud store is not set up yet (offline); merge when online: grocery-dude cloud online, then cloud enable --merge"
                        )
                    }
                    let result = try device.coordinator.startSeed(from: configuration.localStoreURL)
                    print(
                        result.report(
                            merged: "local data (\(count) item\(count == 1 ? "" : "s"))", removed: "the local store"))
                    return
                }
                print("Cloud sync is already enabled (account \(account.debugDescription)).")
                if let count = localItems {
                    print(
                        "This device's local data (\(count) item\(count == 1 ? "" : "s")) is not merged into the cloud: grocery-dude cloud enable --merge brings it in."
                    )
                }
                return
            }
            var mergeLocal = merge
            if let count = localItems, !merge && !noMerge {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationErrorMessage(
                        "this device has local data (\(counted(count, "item"))); pass --merge to copy it into the cloud, or --no-merge to keep it in the local store only"
                    )
                }
                mergeLocal = try Self.askMergeWithCloud()
            }
            try StoreCoordinator.enableCloudSync(configuration)
            // Returns at once on the fallback store, unless merging: matching the local data
            // against the cloud's needs the cloud store set up (when online).
            let device = try global.openDevice(command: "cloud enable", prepare: localItems != nil && mergeLocal)
            if localItems != nil, mergeLocal {
                let result = try device.coordinator.startSeed(from: configuration.localStoreURL)
                print(result.report(merged: "local data", removed: "the local store"))
            }
            let usingLocal = device.coordinator.current.usingLocalStorage
            print(
                "Cloud sync enabled for account \(account.debugDescription) on device \(sandbox.device.debugDescription)."
            )
            if let reason = configuration.cloudFolderProblem {
                print("But \(reason). Until then this device works offline and keeps its changes.")
            }
            print(
                "Using local storage: \(usingLocal ? 1 : 0)"
                    + (usingLocal
                        ? " (the cloud store is set up in the background; until then changes are kept in a fallback store)"
                        : ""))
        }

        /// The prompt of Apple's iCloud notes, on a terminal.
        static func askMergeWithCloud() throws -> Bool {
            print("Merge with Cloud?")
            print(
                "This will move your existing data into the cloud. If you don't merge now, you can merge later by turning cloud sync off and on again."
            )
            while true {
                print("[d] Don't Merge   [m] Merge: ", terminator: "")
                fflush(nil)
                guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
                    throw ValidationErrorMessage("no answer; cloud sync is still off")
                }
                if ["m", "merge"].contains(answer) { return true }
                if ["d", "don't merge", "dont merge", "don't", "dont"].contains(answer) { return false }
            }
        }
    }
}
