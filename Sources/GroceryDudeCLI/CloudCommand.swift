import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// `grocery-dude cloud …`: the "Enable cloud sync" setting and syncing by hand.
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud", abstract: "Cloud sync: enable, disable, sync now, status.",
        subcommands: [Enable.self, Disable.self, Sync.self, Watch.self, Status.self, Release.self, Baseline.self, Rebuild.self, StartOver.self,
                      MergeKept.self, Offline.self, Online.self, Verify.self])

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Turn cloud sync on for this device.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Copy this device's local data into the account's cloud store.") var merge = false
        @Flag(name: .customLong("no-merge"), help: "Leave this device's local data in its local store.") var noMerge = false

        func validate() throws {
            if merge && noMerge { throw ValidationError("pass --merge or --no-merge, not both") }
        }

        func run() throws {
            let global = root.global
            let (sandbox, logger) = try global.openSandbox(command: "cloud enable")
            let configuration = try global.storeConfiguration(sandbox: sandbox, logger: logger, command: "cloud enable")
            let before = try DeviceSettings.load(from: sandbox)
            guard let account = before.account else {
                throw ValidationErrorMessage("this device is signed out; sign in first: grocery-dude account sign-in NAME")
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
                        throw ValidationErrorMessage("the cloud store is not set up yet (offline); merge when online: grocery-dude cloud online, then cloud enable --merge")
                    }
                    let result = try device.coordinator.startSeed(from: configuration.localStoreURL, progress: device.coordinator.seedProgress)
                    print(result.report(merged: "local data (\(count) item\(count == 1 ? "" : "s"))", removed: "the local store"))
                    return
                }
                print("Cloud sync is already enabled (account \(account.debugDescription)).")
                if let count = localItems {
                    print("This device's local data (\(count) item\(count == 1 ? "" : "s")) is not merged into the cloud: grocery-dude cloud enable --merge brings it in.")
                }
                return
            }
            var mergeLocal = merge
            if let count = localItems, !merge && !noMerge {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationErrorMessage(
                        "this device has local data (\(counted(count, "item"))); pass --merge to copy it into the cloud, or --no-merge to keep it in the local store only")
                }
                mergeLocal = try Self.askMergeWithCloud()
            }
            try StoreCoordinator.enableCloudSync(configuration)
            // Returns at once on the fallback store, unless merging: matching the local data
            // against the cloud's needs the cloud store set up (when online).
            let device = try global.openDevice(command: "cloud enable", prepare: localItems != nil && mergeLocal)
            if localItems != nil, mergeLocal {
                let result = try device.coordinator.startSeed(from: configuration.localStoreURL, progress: device.coordinator.seedProgress)
                print(result.report(merged: "local data", removed: "the local store"))
            }
            let usingLocal = device.coordinator.current.usingLocalStorage
            print("Cloud sync enabled for account \(account.debugDescription) on device \(sandbox.device.debugDescription).")
            if let reason = CloudNames.unreachableReason(configuration.cloud) {
                print("But \(reason). Until then this device works offline and keeps its changes.")
            }
            print("Using local storage: \(usingLocal ? 1 : 0)" + (usingLocal
                ? " (the cloud store is set up in the background; until then changes are kept in a fallback store)" : ""))
        }

        /// The prompt of Apple's iCloud notes, on a terminal.
        static func askMergeWithCloud() throws -> Bool {
            print("Merge with Cloud?")
            print("This will move your existing data into the cloud. If you don't merge now, you can merge later by turning cloud sync off and on again.")
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
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Export, import, and wait until nothing more arrives.")
        @ParentCommand var root: GroceryDudeCommand
        @Option(help: "Give up after this many seconds.") var timeout: Double = 10

        func validate() throws {
            guard timeout.isFinite, timeout >= 0, timeout <= 3600 else { throw ValidationError("--timeout must be 0 to 3600 seconds") }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "cloud sync")
            let sync = try device.requireSync()
            // What opening the device already did counts: every command syncs first.
            let prepared = device.coordinator.preparation
            guard !device.isOffline else {
                throw ValidationErrorMessage(sync.isCloudReachable
                    ? "this device is offline: grocery-dude cloud online"
                    : "the cloud folder \(sync.cloudFolder.path) is missing or cannot be written; is it mounted?")
            }
            let rounds = try sync.syncUntilQuiet(deadline: Date().addingTimeInterval(timeout), after: prepared)
            for line in rounds.waiting {
                FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
            }
            if let baseline = try sync.coalesceHistoryIfDue() {
                device.logger.info("wrote baseline \(baseline.lastPathComponent)")
            }
            // Others compare with it (`cloud verify`); a failure here is no failure of the sync.
            do { try sync.publishDigestIfChanged() } catch { device.logger.warning("digest not published: \(ErrorText.reason(error))") }
            print("Synced: exported \(rounds.exported) log\(rounds.exported == 1 ? "" : "s"), imported \(rounds.appliedLogs) (\(rounds.changedObjects) object\(rounds.changedObjects == 1 ? "" : "s") changed).")
            let refused = try sync.refusedFiles()
            guard refused.isEmpty else {
                for file in refused {
                    FileHandle.standardError.write(Data("refused: \(file.summary)\(file.holdsDeviceBack ? " — its later logs wait" : "")\n".utf8))
                }
                throw ValidationErrorMessage("\(refused.count) file\(refused.count == 1 ? " was" : "s were") refused (see above and `grocery-dude cloud status`); every other device's changes were imported")
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
                throw ValidationErrorMessage("the store changed while the baseline was being made; run the command again")
            }
            let removed = try sync.pruneCoveredLogs(gracePeriod: graceHours * 3600)
            device.logger.info("wrote baseline \(url.lastPathComponent); removed \(removed) covered logs")
            print("Wrote baseline \(url.lastPathComponent); removed \(removed) covered log\(removed == 1 ? "" : "s") of this device.")
        }
    }

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Rebuild this device's cloud store from the cloud folder (after exporting what is pending).",
            discussion: "The old store file is kept in <data-dir>/devices/<device>/ubiquity/<account>/<store>/kept/ as before-rebuild-<time>.sqlite; the command prints its path.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "cloud rebuild", prepare: false)
            let kept = try device.coordinator.rebuild()
            print("Rebuilt from the cloud: \(counted(try device.store.items().count, "item")). The old store is kept at \(kept?.path ?? "?").")
        }
    }

    struct StartOver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start-over",
            abstract: "Delete this store's cloud content for every device, and continue on an empty store.",
            discussion: """
                Every other device moves its store aside when it sees this (its data is kept on it). \
                This device's data is kept aside too. Without --yes, asks for a typed confirmation.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let device = try root.global.openDevice(command: "cloud start-over", prepare: false)
            guard let account = device.coordinator.current.account else {
                throw ValidationErrorMessage("cloud sync is disabled on this device: grocery-dude cloud enable")
            }
            if !yes { try confirm(account: account, storeName: device.coordinator.configuration.storeName) }
            let result = try device.coordinator.startOver { done, total in
                FileHandle.standardError.write(Data("Deleting the cloud content: \(done)/\(total) files\n".utf8))
            }
            print("Started over: epoch \(result.epoch); \(result.deletedFiles) file\(result.deletedFiles == 1 ? "" : "s") deleted from the cloud folder.")
            if let kept = result.keptStore { print("This device's previous data is kept at \(kept.path).") }
        }

        private func confirm(account: String, storeName: String) throws {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationErrorMessage("start-over deletes the cloud content of every device; pass --yes to do it from a script")
            }
            print("This deletes \(storeName) in account \(account.debugDescription) from the cloud folder, for every device.")
            print("Each device keeps its data aside, but it will no longer sync. Type \"start over\" to go on: ", terminator: "")
            fflush(nil)
            guard readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "start over" else {
                throw ValidationErrorMessage("not confirmed; nothing was deleted")
            }
        }
    }

    struct MergeKept: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-kept",
            abstract: "Merge a store kept aside (by a start over, a rebuild, a disable) into the cloud store, then remove it.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The kept store's file (see the kept/ folders of the device).") var file: String

        func run() throws {
            let url = URL(fileURLWithPath: file)
            guard FileManager.default.fileExists(atPath: url.path) else { throw ValidationErrorMessage("no such file: \(file)") }
            let device = try root.global.openDevice(command: "cloud merge-kept")
            let result = try device.coordinator.startSeed(from: url, progress: device.coordinator.seedProgress)
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
        static let configuration = CommandConfiguration(commandName: "online", abstract: "Back to the cloud: exports what waited, imports what arrived.")
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
            if let reason = CloudNames.unreachableReason(device.coordinator.configuration.cloud) {
                print("Online, but \(reason): changes keep waiting on this device.")
                return
            }
            guard let sync = device.sync else {
                print("Online: the cloud store is being set up; changes keep waiting until it is (grocery-dude cloud status).")
                return
            }
            // A peer may have started over meanwhile: what this device held then is kept, not exported.
            if let removed = journal.entries(limit: 20).first(where: { $0.at >= since && $0.transition == "contentRemoved" }) {
                print("Online. \(removed.detail.prefix(1).uppercased() + removed.detail.dropFirst()).")
                print("Changes made meanwhile were not exported to the new content: grocery-dude cloud merge-kept FILE brings them in.")
                return
            }
            let imported = device.coordinator.preparation.imported?.appliedLogs ?? 0
            let waiting = try sync.pendingExports()
            print(waiting == 0 ? "Online: nothing made on this device waits to be exported; imported \(imported) log\(imported == 1 ? "" : "s") from other devices."
                               : "Online, but \(waiting) change(s) could not be exported yet; see the log file.")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the state of cloud sync on this device.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "cloud status", prepare: false)
            let status = try device.coordinator.status()
            var fields: [(String, JSONWriter.Value, String)] = [
                ("enabled", .bool(status.enabled), status.enabled ? "yes" : "no"),
                ("account", .string(status.account), status.account ?? "(signed out)"),
                ("device", .string(status.device), status.device),
                ("peerID", .string(status.peerID), status.peerID),
                ("storeName", .string(status.storeName), status.storeName),
                ("modelVersion", .integer(status.modelVersion), "\(status.modelVersion)"),
                ("store", .string(status.role.rawValue), status.store),
                ("usingLocalStorage", .integer(status.usingLocalStorage ? 1 : 0), status.usingLocalStorage ? "1" : "0"),
            ]
            if let cloud = status.cloud {
                let lastSync = cloud.lastSync.map(Timestamp.string)
                fields += [
                    ("offline", .bool(cloud.offline), cloud.offlineReason.map { "yes (\($0))" } ?? "no"),
                    ("cloudFolder", .string(cloud.folder), cloud.folder),
                    ("epoch", .integer(cloud.epoch), "\(cloud.epoch)"),
                    ("pendingExport", .integer(cloud.pendingExport), "\(cloud.pendingExport) log\(cloud.pendingExport == 1 ? "" : "s")"),
                    ("pendingImport", .integer(cloud.pendingImport), "\(cloud.pendingImport) log\(cloud.pendingImport == 1 ? "" : "s")"),
                    ("lastSync", .string(lastSync), lastSync ?? "never"),
                    ("divergedFrom", .raw(cloud.lastVerify.map { "[" + $0.diverged.map(JSONText.quoted).joined(separator: ", ") + "]" } ?? "null"),
                     cloud.lastVerify.map(Self.verified) ?? "never (grocery-dude cloud verify)"),
                ]
            }
            let transitions = status.transitions
            let refused = status.cloud?.refused ?? []
            if json {
                var writer = JSONObjectWriter()
                for (key, value, _) in fields { writer.add(key, value) }
                if let cloud = status.cloud {
                    writer.add("refused", .raw(Self.json(refused)))
                    writer.add("clocksAhead", .raw(Self.json(cloud.clocksAhead)))
                }
                writer.add("transitions", .raw(Self.json(transitions)))
                print(writer.text)
            } else {
                let labels = ["enabled": "Cloud sync", "offline": "Offline", "account": "Account", "device": "Device", "peerID": "Peer ID",
                              "storeName": "Store name", "modelVersion": "Model version",
                              "usingLocalStorage": "Using local storage", "store": "Store", "cloudFolder": "Cloud folder", "epoch": "Epoch",
                              "pendingExport": "Pending export", "pendingImport": "Pending import", "lastSync": "Last sync",
                              "divergedFrom": "Last verify"]
                for (key, _, text) in fields { print("\(labels[key]!):".padding(toLength: 21, withPad: " ", startingAt: 0) + text) }
                if status.cloud != nil {
                    print("Refused files:".padding(toLength: 21, withPad: " ", startingAt: 0) + (refused.isEmpty ? "none" : ""))
                    for file in refused { print("  \(file.summary)" + (file.holdsDeviceBack ? " — its later logs wait" : "")) }
                    if refused.contains(where: \.holdsDeviceBack) {
                        print("  To skip a refused log and lose its changes: grocery-dude cloud release PEER LOG")
                    }
                }
                if let cloud = status.cloud {
                    print("Clocks ahead:".padding(toLength: 21, withPad: " ", startingAt: 0) + (cloud.clocksAhead.isEmpty ? "none" : ""))
                    for clock in cloud.clocksAhead { print("  \(clock.summary)") }
                    if !cloud.clocksAhead.isEmpty { print("  \(Self.clockAheadAdvice)") }
                }
                print("Transitions:".padding(toLength: 21, withPad: " ", startingAt: 0) + (transitions.isEmpty ? "none" : ""))
                for entry in transitions.prefix(5) { print("  \(entry.at)  \(entry.transition): \(entry.detail)") }
            }
        }

        /// One object per line.
        static func json(_ refused: [RefusedCloudFile]) -> String {
            guard !refused.isEmpty else { return "[]" }
            let objects = refused.map { file in
                "{\"kind\": \(JSONText.quoted(file.kind)), \"path\": \(JSONText.quoted(file.path)), "
                    + "\"peer\": \(JSONText.quoted(file.peer)), \"device\": \(file.device.map(JSONText.quoted) ?? "null"), "
                    + "\"seq\": \(file.seq), \"reason\": \(JSONText.quoted(file.reason)), \"holdsPeer\": \(file.holdsDeviceBack)}"
            }
            return "[\n    " + objects.joined(separator: ",\n    ") + "\n  ]"
        }

        /// What a clock far ahead does, and what to do about it.
        static let clockAheadAdvice = "Until that clock is set right, its edits win over edits made at the same time on other devices "
            + "(never over edits made after seeing them); this device's clock does not follow it."

        /// One object per line; times in UTC, how far ahead in seconds.
        static func json(_ clocks: [ClockAheadNote]) -> String {
            guard !clocks.isEmpty else { return "[]" }
            let objects = clocks.map { clock in
                "{\"peer\": \(JSONText.quoted(clock.peer)), \"device\": \(clock.device.map(JSONText.quoted) ?? "null"), "
                    + "\"file\": \(JSONText.quoted(clock.file)), \"writtenAt\": \(JSONText.quoted(Timestamp.string(clock.writtenAt))), "
                    + "\"seenAt\": \(JSONText.quoted(Timestamp.string(clock.seenAt))), \"aheadSeconds\": \(Int64(clock.ahead.rounded())), "
                    + "\"ahead\": \(JSONText.quoted(DurationText.about(clock.ahead)))}"
            }
            return "[\n    " + objects.joined(separator: ",\n    ") + "\n  ]"
        }

        /// The last `cloud verify`, in words: a divergence first.
        static func verified(_ summary: LastVerify) -> String {
            let at = Timestamp.string(summary.at)
            if !summary.diverged.isEmpty {
                return "DIVERGED from \(summary.diverged.joined(separator: ", ")) (\(at)): run grocery-dude cloud verify"
            }
            return summary.agreed.isEmpty ? "nothing to compare (\(at))" : "agrees with \(summary.agreed.joined(separator: ", ")) (\(at))"
        }

        /// Most recent first, one object per line.
        static func json(_ transitions: [TransitionJournal.Entry]) -> String {
            guard !transitions.isEmpty else { return "[]" }
            let objects = transitions.map { entry in
                "{\"at\": \(JSONText.quoted(entry.at)), \"transition\": \(JSONText.quoted(entry.transition)), "
                    + "\"removed\": [\(entry.removed.map(JSONText.quoted).joined(separator: ", "))], "
                    + "\"added\": [\(entry.added.map(JSONText.quoted).joined(separator: ", "))], "
                    + "\"detail\": \(JSONText.quoted(entry.detail)), \"by\": \(JSONText.quoted(entry.by))}"
            }
            return "[\n    " + objects.joined(separator: ",\n    ") + "\n  ]"
        }
    }
}
