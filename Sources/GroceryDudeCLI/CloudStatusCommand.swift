import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

extension CloudCommand {
    /// `grocery-dude cloud status [--json]`: the state of cloud sync on this device.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Show the state of cloud sync on this device.")
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
                let offlineReason = cloud.offlineReason ?? (cloud.setOffline ? "cloud offline" : nil)
                fields += [
                    ("offline", .bool(cloud.offline), offlineReason.map { "yes (\($0))" } ?? "no"),
                    ("offlineReason", .string(offlineReason), ""),
                    ("cloudFolder", .string(cloud.folder), cloud.folder),
                    ("epoch", .integer(cloud.epoch), "\(cloud.epoch)"),
                    (
                        "pendingExport", .integer(cloud.pendingExport),
                        "\(cloud.pendingExport) log\(cloud.pendingExport == 1 ? "" : "s")"
                            + (cloud.pendingExportAllLists != cloud.pendingExport
                                ? " (\(cloud.pendingExportAllLists) in all lists)" : "")
                    ),
                    ("pendingExportAllLists", .integer(cloud.pendingExportAllLists), ""),
                    (
                        "pendingImport", .integer(cloud.pendingImport),
                        "\(cloud.pendingImport) log\(cloud.pendingImport == 1 ? "" : "s")"
                    ),
                    ("lastSync", .string(lastSync), lastSync ?? "never"),
                    (
                        "divergedFrom",
                        .raw(
                            cloud.lastVerify.map {
                                "[" + $0.diverged.map(JSONText.quoted).joined(separator: ", ") + "]"
                            } ?? "null"),
                        cloud.lastVerify.map(Self.verified) ?? "never (grocery-dude cloud verify)"
                    ),
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
                    writer.add("otherModelVersions", .raw(Self.json(cloud.otherModels)))
                }
                writer.add("transitions", .raw(Self.json(transitions)))
                print(writer.text)
            } else {
                let labels = [
                    "enabled": "Cloud sync", "offline": "Offline", "account": "Account", "device": "Device",
                    "peerID": "Peer ID",
                    "storeName": "Store name", "modelVersion": "Model version",
                    "usingLocalStorage": "Using local storage", "store": "Store", "cloudFolder": "Cloud folder",
                    "epoch": "Epoch",
                    "pendingExport": "Pending export", "pendingImport": "Pending import", "lastSync": "Last sync",
                    "divergedFrom": "Last verify",
                ]
                for (key, _, text) in fields where !["offlineReason", "pendingExportAllLists"].contains(key) {
                    print("\(labels[key]!):".padding(toLength: 21, withPad: " ", startingAt: 0) + text)
                }
                if status.cloud != nil {
                    print(
                        "Refused files:".padding(toLength: 21, withPad: " ", startingAt: 0)
                            + (refused.isEmpty ? "none" : ""))
                    for file in refused {
                        print("  \(file.summary)" + (file.holdsDeviceBack ? " — its later logs wait" : ""))
                    }
                    if refused.contains(where: \.holdsDeviceBack) {
                        print("  To skip a refused log and lose its changes: grocery-dude cloud release PEER LOG")
                    }
                }
                if let cloud = status.cloud {
                    print(
                        "Clocks ahead:".padding(toLength: 21, withPad: " ", startingAt: 0)
                            + (cloud.clocksAhead.isEmpty ? "none" : ""))
                    for clock in cloud.clocksAhead { print("  \(clock.summary)") }
                    if !cloud.clocksAhead.isEmpty { print("  \(Self.clockAheadAdvice)") }
                    print(
                        "Other versions:".padding(toLength: 21, withPad: " ", startingAt: 0)
                            + (cloud.otherModels.isEmpty ? "none" : ""))
                    for other in cloud.otherModels { print("  \(other.summary)") }
                }
                print(
                    "Transitions:".padding(toLength: 21, withPad: " ", startingAt: 0)
                        + (transitions.isEmpty ? "none" : ""))
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
        static let clockAheadAdvice =
            "Until that clock is set right, its edits win over edits made at the same time on other devices "
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

        /// One object per line: the device, its model version, whether it is older than this
        /// one's, when its newest log arrived.
        static func json(_ others: [OtherModelNote]) -> String {
            guard !others.isEmpty else { return "[]" }
            let objects = others.map { other in
                "{\"peer\": \(JSONText.quoted(other.peer)), \"device\": \(other.device.map(JSONText.quoted) ?? "null"), "
                    + "\"modelVersion\": \(other.modelVersion), \"older\": \(other.isOlder), "
                    + "\"lastSeen\": \(other.lastSeen.map { JSONText.quoted(Timestamp.string($0)) } ?? "null")}"
            }
            return "[\n    " + objects.joined(separator: ",\n    ") + "\n  ]"
        }

        /// The last `cloud verify`, in words: a divergence first.
        static func verified(_ summary: LastVerify) -> String {
            let at = Timestamp.string(summary.at)
            if !summary.diverged.isEmpty {
                return
                    "DIVERGED from \(summary.diverged.joined(separator: ", ")) (\(at)): run grocery-dude cloud verify"
            }
            return summary.agreed.isEmpty
                ? "nothing to compare (\(at))" : "agrees with \(summary.agreed.joined(separator: ", ")) (\(at))"
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
