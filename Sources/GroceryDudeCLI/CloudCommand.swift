import ArgumentParser
import Foundation
import GroceryModel
import Ubiquity

/// `grocery-dude cloud …`: the "Enable cloud sync" setting and syncing by hand.
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud", abstract: "Cloud sync: enable, disable, sync now, status.",
        subcommands: [Enable.self, Disable.self, Sync.self, Status.self, Baseline.self, Rebuild.self, Offline.self, Online.self])

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn cloud sync on for this device.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Copy this device's local data into the account's cloud store.") var merge = false
        @Flag(name: .customLong("no-merge"), help: "Leave this device's local data in its local store.") var noMerge = false

        func validate() throws {
            if merge && noMerge { throw ValidationError("pass --merge or --no-merge, not both") }
        }

        func run() throws {
            let global = root.global
            let (sandbox, logger) = try global.openSandbox(command: "cloud enable")
            var settings = try DeviceSettings.load(from: sandbox)
            guard let account = settings.account else {
                throw ValidationErrorMessage("this device is signed out; sign in first: grocery-dude account sign-in NAME")
            }
            if settings.cloudEnabled {
                print("Cloud sync is already enabled (account \(account.debugDescription)).")
                return
            }
            let localURL = sandbox.localStoreURL(storeName: try global.resolvedStoreName())
            var local: GroceryStore?
            if FileManager.default.fileExists(atPath: localURL.path) {
                let store = try GroceryStore(path: localURL.path, modelVersion: global.resolvedModelVersion(),
                                             defaultData: false, logger: logger)
                if try store.hasData() { local = store }
            }
            if let local, !merge && !noMerge {
                let count = try local.items().count
                throw ValidationErrorMessage(
                    "this device has local data (\(count) items); pass --merge to copy it into the cloud, or --no-merge to keep it in the local store only")
            }
            // The default cloud folder is ours to make; one named with --cloud must exist (a
            // missing mount point means offline, and must not be filled in its absence).
            let cloud = global.resolvedCloudDirectory()
            if global.cloud == nil, ProcessInfo.processInfo.environment["GROCERY_DUDE_CLOUD"] == nil {
                try? FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
            }
            let device = try global.openCloudStore(sandbox: sandbox, account: account,
                                                   peer: try sandbox.peerID().description, logger: logger)
            device.importPending()
            if let local, merge {
                // Until seeding arrives (issue 5), merging is an import matched by names.
                let summary = try device.store.importArchive(try local.exportArchive(), source: "local store")
                logger.info("merged the local store into the cloud store: \(summary.description)")
                print("Merged local data into the cloud: \(summary.description)")
            }
            settings.cloudEnabled = true
            try settings.save(to: sandbox)
            logger.info("cloud sync enabled for account \(account); Using local storage: 0")
            print("Cloud sync enabled for account \(account.debugDescription) on device \(sandbox.device.debugDescription).")
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn cloud sync off: the device goes back to its local store; the cloud store is kept.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud disable")
            var settings = try DeviceSettings.load(from: sandbox)
            guard settings.cloudEnabled else {
                print("Cloud sync is already disabled.")
                return
            }
            settings.cloudEnabled = false
            try settings.save(to: sandbox)
            logger.info("cloud sync disabled")
            print("Cloud sync disabled; this device uses its local store. The cloud store is kept on the device.")
        }
    }

    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Export, import, and wait until nothing more arrives.")
        @ParentCommand var root: GroceryDudeCommand
        @Option(help: "Give up after this many seconds.") var timeout: Double = 10

        func validate() throws {
            guard timeout.isFinite, timeout >= 0, timeout <= 3600 else { throw ValidationError("--timeout must be 0 to 3600 seconds") }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "cloud sync")
            let sync = try device.requireSync()
            guard !device.isOffline else {
                throw ValidationErrorMessage(sync.layout.isReachable
                    ? "this device is offline: grocery-dude cloud online"
                    : "the cloud folder \(sync.layout.cloud.path) is missing or cannot be written; is it mounted?")
            }
            let deadline = Date().addingTimeInterval(timeout)
            var exported = 0
            var total = ImportReport()
            var report = ImportReport()
            repeat {
                exported += try sync.exportPending()
                report = try sync.importPending()
                total.appliedLogs += report.appliedLogs
                total.changes.formUnion(report.changes)
                if report.appliedLogs == 0 { break }
            } while Date() < deadline
            for line in report.waiting + report.rejected {
                FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
            }
            if let baseline = try sync.coalesceHistoryIfDue() {
                device.logger.info("wrote baseline \(baseline.lastPathComponent)")
            }
            print("Synced: exported \(exported) log\(exported == 1 ? "" : "s"), imported \(total.appliedLogs) (\(total.changes.count) object\(total.changes.count == 1 ? "" : "s") changed).")
        }
    }

    struct Baseline: ParsableCommand {
        static let configuration = CommandConfiguration(
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
            abstract: "Rebuild this device's cloud store from the cloud folder (after exporting what is pending).",
            discussion: "The old store file is kept beside the new one as store-before-rebuild.sqlite.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let global = root.global
            let device = try global.openDevice(command: "cloud rebuild")
            let sync = try device.requireSync()
            try sync.exportPending()
            let pending = try sync.pendingExports()
            guard pending == 0 else {
                throw ValidationErrorMessage("\(pending) change(s) could not be exported to the cloud folder; rebuilding now would lose them")
            }
            let url = URL(fileURLWithPath: device.store.objects.path)
            try device.store.objects.close()
            let aside = url.deletingLastPathComponent().appendingPathComponent("store-before-rebuild.sqlite")
            let manager = FileManager.default
            for suffix in ["", "-wal", "-shm"] {
                let target = URL(fileURLWithPath: aside.path + suffix)
                try? manager.removeItem(at: target)
                if manager.fileExists(atPath: url.path + suffix) {
                    try manager.moveItem(at: URL(fileURLWithPath: url.path + suffix), to: target)
                }
            }
            let rebuilt = try global.openCloudStore(sandbox: device.sandbox, account: sync.layout.account,
                                                   peer: device.store.objects.peer, logger: device.logger)
            let report = rebuilt.importPending()
            device.logger.info("rebuilt the cloud store from the cloud folder")
            print("Rebuilt from the cloud: \(try rebuilt.store.items().count) items\(report.map { ", \($0.appliedLogs) logs and \($0.loadedBaselines) baselines read" } ?? "").")
        }
    }

    struct Offline: ParsableCommand {
        static let configuration = CommandConfiguration(
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
        static let configuration = CommandConfiguration(abstract: "Back to the cloud: exports what waited, imports what arrived.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud online")
            var settings = try DeviceSettings.load(from: sandbox)
            settings.offline = false
            try settings.save(to: sandbox)
            logger.info("cloud online")
            let device = try root.global.openDevice(command: "cloud online")
            guard let sync = device.sync else {
                print("Online. (Cloud sync is disabled on this device: grocery-dude cloud enable.)")
                return
            }
            guard sync.layout.isReachable else {
                print("Online, but the cloud folder \(sync.layout.cloud.path) is not reachable yet: changes keep waiting.")
                return
            }
            let waiting = try sync.pendingExports()
            print(waiting == 0 ? "Online: changes made meanwhile are exported, and what arrived is imported."
                               : "Online, but \(waiting) change(s) could not be exported yet; see the log file.")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the state of cloud sync on this device.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let global = root.global
            let (sandbox, _) = try global.openSandbox(command: "cloud status")
            let settings = try DeviceSettings.load(from: sandbox)
            let device = try global.openDevice(command: "cloud status")
            let sync = device.sync
            let lastSync = try device.store.objects.metadata("lastSync").flatMap(Double.init)
                .map { Timestamp.string(Date(timeIntervalSince1970: $0)) }
            var fields: [(String, JSONWriter.Value, String)] = [
                ("enabled", .bool(settings.cloudEnabled), settings.cloudEnabled ? "yes" : "no"),
                ("account", .string(settings.account), settings.account ?? "(signed out)"),
                ("device", .string(sandbox.device), sandbox.device),
                ("peerID", .string(device.store.objects.peer), device.store.objects.peer),
                ("storeName", .string(try global.resolvedStoreName()), try global.resolvedStoreName()),
                ("modelVersion", .integer(device.store.modelVersion), "\(device.store.modelVersion)"),
                ("usingLocalStorage", .integer(sync == nil ? 1 : 0), sync == nil ? "1" : "0"),
            ]
            if let sync {
                let reachable = sync.layout.isReachable
                fields += [("offline", .bool(device.isOffline),
                            device.isOffline ? (reachable ? "yes (cloud offline)" : "yes (the cloud folder is not reachable)") : "no")]
                let exports = try sync.pendingExports()
                let imports = try sync.pendingImports()
                fields += [
                    ("cloudFolder", .string(sync.layout.cloud.path), sync.layout.cloud.path),
                    ("epoch", .integer(sync.layout.epoch), "\(sync.layout.epoch)"),
                    ("pendingExport", .integer(exports), "\(exports) log\(exports == 1 ? "" : "s")"),
                    ("pendingImport", .integer(imports), "\(imports) log\(imports == 1 ? "" : "s")"),
                    ("lastSync", .string(lastSync), lastSync ?? "never"),
                ]
            }
            if json {
                var writer = JSONObjectWriter()
                for (key, value, _) in fields { writer.add(key, value) }
                print(writer.text)
            } else {
                let labels = ["enabled": "Cloud sync", "offline": "Offline", "account": "Account", "device": "Device", "peerID": "Peer ID",
                              "storeName": "Store name", "modelVersion": "Model version",
                              "usingLocalStorage": "Using local storage", "cloudFolder": "Cloud folder", "epoch": "Epoch",
                              "pendingExport": "Pending export", "pendingImport": "Pending import", "lastSync": "Last sync"]
                for (key, _, text) in fields { print("\(labels[key]!):".padding(toLength: 21, withPad: " ", startingAt: 0) + text) }
            }
        }
    }
}
