import Foundation
import StoreLifecycle
import TextAndFiles

/// One row of the Cloud screen, already worded: the terminal only picks a style for each
/// ``Emphasis`` and draws it, so it needs nothing of the store layer to show the status.
public enum CloudScreenRow: Equatable, Sendable {
    /// How a row stands out; the screen maps each to a terminal style.
    public enum Emphasis: Equatable, Sendable {
        case plain
        /// The setting the screen is about.
        case strong
        /// A placeholder ("none", "Reading…").
        case quiet
        /// Something the user should look at (offline, refused files, clocks ahead).
        case warning
    }

    /// A field and its value.
    case field(label: String, value: String, Emphasis)
    /// A section's title, with a quiet note beside it (the key that acts on it).
    case title(String, note: String)
    /// A line of text.
    case text(String, Emphasis)
    case blank
}

extension CloudViewModel {
    /// Everything the Cloud screen shows, top to bottom, worded.
    public var rows: [CloudScreenRow] {
        guard let status else { return [.text("Reading the cloud status…", .quiet)] }
        var rows: [CloudScreenRow] = [
            .field(label: "Enable cloud sync", value: Self.enableLine(status), .strong),
            .field(label: "Account", value: status.account ?? "(signed out)   (i sign in)", .plain),
            .field(label: "Device", value: status.device, .plain),
            .field(
                label: "Using local storage", value: Self.usingLocalStorage(status),
                status.usingLocalStorage && status.enabled ? .warning : .plain),
            .field(label: "Store", value: status.store, .plain),
            .field(label: "Peer ID", value: status.peerID, .plain),
            .field(label: "Model version", value: "\(status.modelVersion)", .plain),
        ]
        if let cloud = status.cloud { rows += Self.cloudFields(cloud) }
        if !status.kept.isEmpty {
            rows += [.blank, .title("Kept aside on this device", note: "(M merges the newest back, asks)")]
            for kept in status.kept {
                let items = kept.items.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "unreadable"
                rows.append(
                    .text("  \(ScreenTime.text(kept.kept))  \(kept.label): \(items)  \(kept.fileName)", .warning))
            }
        }
        rows += [.blank, .title("Recent transitions", note: "(m: in full)")]
        for line in recentTransitions.prefix(3) { rows.append(.text("  \(line.when)  \(line.what)", .plain)) }
        if recentTransitions.isEmpty { rows.append(.text("  none", .quiet)) }
        if !recentImports.isEmpty {
            rows += [.blank, .title("Recent imports", note: "")]
            for note in recentImports.prefix(3) {
                let summary = BackgroundImport.summary(count: note.changes, devices: note.devices.sorted())
                rows.append(.text("  \(ScreenTime.text(note.at))  \(summary)", .plain))
            }
        }
        return rows
    }

    /// Whether the device works offline now (what `o` toggles).
    public var isOffline: Bool { status?.cloud?.offline ?? false }

    /// A transition of the store, worded for a line: when (to the second) and what.
    public struct TransitionLine: Equatable, Sendable {
        public var when: String
        public var what: String
    }

    /// The store's recent transitions, most recent first.
    public var recentTransitions: [TransitionLine] {
        (status?.transitions ?? []).map { entry in
            TransitionLine(
                when: entry.at.prefix(19).replacingOccurrences(of: "T", with: " "),
                what: "\(entry.transition): \(entry.detail)")
        }
    }

    /// Core Data's words, as its log said them, with what they mean beside them.
    static func usingLocalStorage(_ status: CloudStatus) -> String {
        switch (status.usingLocalStorage, status.enabled) {
        case (false, _): "0  (this device works on the account's cloud store)"
        case (true, true): "1  (changes stay on this device until its cloud store is set up)"
        case (true, false): "1  (cloud sync is off: this device's own store)"
        }
    }

    /// The setting, and what `c` does with it; signed out, what to do first.
    static func enableLine(_ status: CloudStatus) -> String {
        guard status.account != nil else {
            return status.enabled
                ? "on, but signed out: nothing syncs  (i signs in)" : "off  (i signs in, then c turns it on)"
        }
        return status.enabled ? "on   (c turns it off)" : "off  (c turns it on)"
    }

    /// The fields of an account's store: offline, last sync, what waits, the folder, the last
    /// verify, clocks ahead and refused files.
    private static func cloudFields(_ cloud: CloudStatus.Cloud) -> [CloudScreenRow] {
        var rows: [CloudScreenRow] = [
            .field(
                label: "Offline",
                value: (cloud.offlineReason ?? (cloud.setOffline ? "set offline: o goes online" : nil)).map {
                    "yes (\($0))"
                }
                    ?? "no",
                cloud.offline ? .warning : .plain),
            .field(label: "Last sync", value: cloud.lastSync.map(ScreenTime.text) ?? "never", .plain),
            .field(
                label: "Pending", value: "\(cloud.pendingExport) to export, \(cloud.pendingImport) to import", .plain),
            .field(label: "Cloud folder", value: cloud.folder, .plain),
        ]
        if let verify = cloud.lastVerify {
            let agreement =
                verify.diverged.isEmpty
                ? (verify.agreed.isEmpty
                    ? "nothing to compare yet" : "yes, with " + verify.agreed.joined(separator: ", "))
                : "NO: data differs from " + verify.diverged.joined(separator: ", ") + " (grocery-dude cloud verify)"
            rows.append(.field(label: "Peers agree?", value: agreement, verify.diverged.isEmpty ? .plain : .warning))
        }
        for clock in cloud.clocksAhead {
            let who = clock.device.map { "device \($0.debugDescription)" } ?? "peer \(clock.peer)"
            rows.append(
                .field(
                    label: "Clock ahead",
                    value: "\(who)'s clock was \(DurationText.about(clock.ahead)) ahead of this one's (\(clock.file)): "
                        + "its edits win over concurrent ones until it is set right", .warning))
        }
        for other in cloud.otherModels {
            rows.append(.field(label: "Other version", value: other.summary, other.isOlder ? .plain : .warning))
        }
        for file in cloud.refused {
            rows.append(
                .field(
                    label: "Refused",
                    value: file.summary + (file.holdsDeviceBack ? " — its later logs wait (K skips it)" : ""), .warning)
            )
        }
        return rows
    }
}
