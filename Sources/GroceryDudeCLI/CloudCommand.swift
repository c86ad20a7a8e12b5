import ArgumentParser
import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// `grocery-dude cloud …`: the "Enable cloud sync" setting and syncing by hand.
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud", abstract: "Cloud sync: enable, disable, sync now, status.",
        subcommands: [
            Enable.self, Disable.self, Sync.self, Watch.self, Status.self, Release.self, Baseline.self, Rebuild.self,
            StartOver.self,
            MergeKept.self, Offline.self, Online.self, Verify.self, Adopt.self,
        ])

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Turn cloud sync off.",
            discussion: """
                When this device's local store holds data you chose not to merge ("Don't Merge"), \
                the device goes back to it, as it was; otherwise everything it holds moves into a \
                plain local store with no cloud metadata. Either way the account's data stays in \
                its cloud store on the device and in the cloud folder: turning sync on again shows \
                it, and asks "Merge with Cloud?" when there is local data.
                """)
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "cloud disable", prepare: false)
            guard device.coordinator.current.role != .local else {
                print("Cloud sync is already disabled.")
                return
            }
            let result = try device.coordinator.disable()
            print(result.summary)
        }
    }

    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Export, import, and wait until nothing more arrives.")
        @ParentCommand var root: GroceryDudeCommand
        @Option(help: "Give up after this many seconds.") var timeout: Double = 10

        func validate() throws {
            guard timeout.isFinite, timeout >= 0, timeout <= 3600 else {
                throw ValidationError("--timeout must be 0 to 3600 seconds")
            }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "cloud sync")
            let sync = try device.requireSync()
            // What opening the device already did counts: every command syncs first.
            let prepared = device.coordinator.preparation
            guard !device.isOffline else {
                throw ValidationErrorMessage(
                    device.coordinator.configuration.cloudFolderProblem
                        ?? "this device is offline: grocery-dude cloud online")
            }
            let rounds = try sync.syncUntilQuiet(deadline: Date().addingTimeInterval(timeout), after: prepared)
            for line in rounds.waiting {
                FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
            }
            if let baseline = try sync.coalesceHistoryIfDue() {
                device.logger.info("wrote baseline \(baseline.lastPathComponent)")
            }
            // Others compare with it (`cloud verify`); a failure here is no failure of the sync.
            do { try sync.publishDigestIfChanged() } catch {
                device.logger.warning("digest not published: \(ErrorText.reason(error))")
            }
            print(
                "Synced: exported \(rounds.exported) log\(rounds.exported == 1 ? "" : "s"), imported \(rounds.appliedLogs) (\(rounds.changedObjects) object\(rounds.changedObjects == 1 ? "" : "s") changed)."
            )
            let refused = try sync.refusedFiles() + (device.coordinator.current.household?.read().refused ?? [])
            guard refused.isEmpty else {
                for file in refused {
                    FileHandle.standardError.write(
                        Data("refused: \(file.summary)\(file.holdsDeviceBack ? " — its later logs wait" : "")\n".utf8))
                }
                throw ValidationErrorMessage(
                    "\(refused.count) file\(refused.count == 1 ? " was" : "s were") refused (see above and `grocery-dude cloud status`); every other device's changes were imported"
                )
            }
        }
    }

    struct Baseline: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "baseline",
            abstract: "Write a baseline of this device's store, and remove this device's logs that baselines cover.")
        @ParentCommand var root: GroceryDudeCommand
        @Option(name: .customLong("grace-hours"), help: "Only remove logs covered by baselines at least this old.")
        var graceHours: Double = 168

        func validate() throws {
            guard graceHours.isFinite, graceHours >= 0 else { throw ValidationError("--grace-hours must be 0 or more") }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "cloud baseline")
            let sync = try device.requireSync()
            guard let url = try sync.writeBaseline() else {
                throw ValidationErrorMessage(
                    "the store changed while the baseline was being made; run the command again")
            }
            let removed = try sync.pruneCoveredLogs(gracePeriod: graceHours * 3600)
            device.logger.info("wrote baseline \(url.lastPathComponent); removed \(removed) covered logs")
            print(
                "Wrote baseline \(url.lastPathComponent); removed \(removed) covered log\(removed == 1 ? "" : "s") of this device."
            )
        }
    }

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Rebuild this device's cloud store from the cloud folder (after exporting what is pending).",
            discussion:
                "The old store file is kept in <data-dir>/devices/<device>/ubiquity/<account>/<store>/kept/ as before-rebuild-<time>.sqlite; the command prints its path."
        )
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "cloud rebuild", prepare: false)
            let kept = try device.coordinator.rebuild()
            print(
                "Rebuilt from the cloud: \(counted(try device.store.items().count, "item")). The old store is kept at \(kept?.path ?? "?")."
            )
        }
    }

    struct StartOver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start-over",
            abstract: "Delete this store's cloud content for every device, and continue on an empty store.",
            discussion: """
                Every other device moves its store aside when it sees this (its data is kept on it). \
                This device's data is kept aside too. Without --yes, asks for a typed confirmation. \
                Refused while a device that published this content runs a build from before folder \
                markers: such a build does not see this one's start over, and would go on alone.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Do not ask for confirmation.") var yes = false
        @Flag(help: "Start over though devices of an earlier build published here (they will not see it).")
        var despiteEarlierBuilds = false

        func run() throws {
            let device = try root.global.openDevice(command: "cloud start-over", prepare: false)
            guard let account = device.coordinator.current.account else {
                throw ValidationErrorMessage("cloud sync is disabled on this device: grocery-dude cloud enable")
            }
            if !yes { try confirm(account: account, storeName: device.coordinator.configuration.storeName) }
            let result = try device.coordinator.startOver(despiteEarlierBuilds: despiteEarlierBuilds) { done, total in
                FileHandle.standardError.write(Data("Deleting the cloud content: \(done)/\(total) files\n".utf8))
            }
            print(
                "Started over: epoch \(result.epoch); \(result.deletedFiles) file\(result.deletedFiles == 1 ? "" : "s") deleted from the cloud folder."
            )
            if let kept = result.keptStore { print("This device's previous data is kept at \(kept.path).") }
        }

        private func confirm(account: String, storeName: String) throws {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationErrorMessage(
                    "start-over deletes the cloud content of every device; pass --yes to do it from a script")
            }
            print(
                "This deletes \(storeName) in account \(account.debugDescription) from the cloud folder, for every device."
            )
            print(
                "Each device keeps its data aside, but it will no longer sync. Type \"start over\" to go on: ",
                terminator: "")
            fflush(nil)
            guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "start over" else {
                throw ValidationErrorMessage("not confirmed; nothing was deleted")
            }
        }
    }

    struct MergeKept: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-kept",
            abstract:
                "Merge a store kept aside (by a start over, a rebuild, a disable) into the cloud store, then remove it."
        )
        @ParentCommand var root: GroceryDudeCommand
        @Argument(
            help: "The kept store's file (see the kept/ folders of the device).",
            completion: CompletionValues.storeFiles)
        var file: String

        func run() throws {
            let url = URL(fileURLWithPath: file)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ValidationErrorMessage("no such file: \(file)")
            }
            let device = try root.global.openDevice(command: "cloud merge-kept")
            let result = try device.coordinator.startSeed(from: url)
            print(result.report(merged: url.lastPathComponent, removed: "the file"))
        }
    }

    struct Offline: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "offline",
            abstract: "Work without the cloud (airplane mode): saves wait, nothing is read; a running app notices.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud offline")
            var settings = try DeviceSettings.load(from: sandbox)
            settings.offline = true
            try settings.save(to: sandbox)
            logger.info("cloud offline")
            print("Offline: changes are kept on this device until `grocery-dude cloud online`.")
        }
    }

    struct Online: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "online", abstract: "Back to the cloud: exports what waited, imports what arrived.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud online")
            var settings = try DeviceSettings.load(from: sandbox)
            settings.offline = false
            try settings.save(to: sandbox)
            logger.info("cloud online")
            let journal = TransitionJournal(sandbox: sandbox)
            let since = TransitionJournal.format(Date())
            let device = try root.global.openDevice(command: "cloud online")
            guard settings.cloudEnabled else {
                print("Online. (Cloud sync is disabled on this device: grocery-dude cloud enable.)")
                return
            }
            if let reason = device.coordinator.configuration.cloudFolderProblem {
                print("Online, but \(reason): changes keep waiting on this device.")
                return
            }
            guard let sync = device.sync else {
                print(
                    "Online: the cloud store is being set up; changes keep waiting until it is (grocery-dude cloud status)."
                )
                return
            }
            // A peer may have started over meanwhile: what this device held then is kept, not exported.
            if let removed = journal.entries(limit: 20).first(where: {
                $0.at >= since && $0.transition == "contentRemoved"
            }) {
                print("Online. \(removed.detail.prefix(1).uppercased() + removed.detail.dropFirst()).")
                print(
                    "Changes made meanwhile were not exported to the new content: grocery-dude cloud merge-kept FILE brings them in."
                )
                return
            }
            var imported = device.coordinator.preparation.importedLogs
            var waiting = try sync.pendingExports()
            // Every other list of the account on this device: what it kept while offline goes out too.
            let here = device.coordinator.configuration.storeName
            for list in try NamedLists(configuration: device.coordinator.configuration).all()
            where list.storeName != here {
                // Its folder on the device holds its cloud store, or the fallback store of saves
                // made before the list's cloud store was set up.
                guard let account = settings.account,
                    FileManager.default.fileExists(
                        atPath: device.coordinator.configuration.sandbox
                            .cloudStoreURL(account: account, storeName: list.storeName).deletingLastPathComponent().path
                    )
                else { continue }
                let other = try root.global.openDevice(
                    command: "cloud online", storeName: list.storeName, claim: device.claim)
                imported += other.coordinator.preparation.importedLogs
                waiting += try other.sync?.pendingExports() ?? 0
            }
            print(
                waiting == 0
                    ? "Online: nothing made on this device waits to be exported; imported \(imported) log\(imported == 1 ? "" : "s") from other devices."
                    : "Online, but \(waiting) change(s) could not be exported yet; see the log file.")
        }
    }
}
