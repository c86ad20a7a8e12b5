import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles
import ViewModels

/// The Cloud screen: the setting, account, device, "Using local storage", peer, model version,
/// last sync, pending logs, devices whose clocks are far ahead, refused files, recent
/// transitions and imports, and the actions' keys.
enum CloudView {
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
            return status.enabled ? "on, but signed out: nothing syncs  (i signs in)" : "off  (i signs in, then c turns it on)"
        }
        return status.enabled ? "on   (c turns it off)" : "off  (c turns it on)"
    }

    static func draw(_ model: CloudViewModel, into screen: inout ScreenBuffer, top: Int, height: Int) {
        let width = screen.width
        guard let status = model.status else {
            screen.put("Reading the cloud status…", row: top + 1, column: 2, style: CellStyle(dim: true))
            return
        }
        var lines: [(String, String, CellStyle)] = [
            ("Enable cloud sync", Self.enableLine(status), CellStyle(bold: true)),
            ("Account", status.account ?? "(signed out)   (i sign in)", .plain),
            ("Device", status.device, .plain),
            ("Using local storage", Self.usingLocalStorage(status), status.usingLocalStorage && status.enabled ? CellStyle(color: .warning) : .plain),
            ("Store", status.store, .plain),
            ("Peer ID", status.peerID, .plain),
            ("Model version", "\(status.modelVersion)", .plain),
        ]
        if let cloud = status.cloud {
            lines += [
                ("Offline", cloud.offlineReason.map { "yes (\($0))" } ?? "no", cloud.offline ? CellStyle(color: .warning) : .plain),
                ("Last sync", cloud.lastSync.map(Self.time) ?? "never", .plain),
                ("Pending", "\(cloud.pendingExport) to export, \(cloud.pendingImport) to import", .plain),
                ("Cloud folder", cloud.folder, .plain),
            ]
            if let verify = cloud.lastVerify {
                lines.append(("Peers agree?", verify.diverged.isEmpty
                    ? (verify.agreed.isEmpty ? "nothing to compare yet" : "yes, with " + verify.agreed.joined(separator: ", "))
                    : "NO: data differs from " + verify.diverged.joined(separator: ", ") + " (grocery-dude cloud verify)",
                    verify.diverged.isEmpty ? .plain : CellStyle(color: .warning)))
            }
            for clock in cloud.clocksAhead {
                let who = clock.device.map { "device \($0.debugDescription)" } ?? "peer \(clock.peer)"
                lines.append(("Clock ahead", "\(who)'s clock was \(DurationText.about(clock.ahead)) ahead of this one's (\(clock.file)): "
                    + "its edits win over concurrent ones until it is set right", CellStyle(color: .warning)))
            }
            for file in cloud.refused {
                lines.append(("Refused", file.summary + (file.holdsDeviceBack ? " — its later logs wait (K skips it)" : ""), CellStyle(color: .warning)))
            }
        }
        let labelWidth = width >= 60 ? 21 : 14
        var y = top
        for (label, value, style) in lines where y < top + height {
            screen.put(" " + TextWidth.truncate(label, to: labelWidth - 2), row: y, column: 0, style: CellStyle(dim: true))
            screen.put(TextWidth.truncate(value, to: width - labelWidth - 1), row: y, column: labelWidth, style: style)
            y += 1
        }
        y += 1
        if y < top + height {
            screen.put(" Recent transitions", row: y, column: 0, style: CellStyle(bold: true, color: .section))
            screen.put("  (m: in full)", row: y, column: 20, style: CellStyle(dim: true))
            y += 1
        }
        for entry in status.transitions.prefix(3) where y < top + height {
            screen.put(TextWidth.truncate("  \(entry.at.prefix(19).replacingOccurrences(of: "T", with: " "))  \(entry.transition): \(entry.detail)", to: width - 1),
                       row: y, column: 0)
            y += 1
        }
        if status.transitions.isEmpty, y < top + height {
            screen.put("  none", row: y, column: 0, style: CellStyle(dim: true))
            y += 1
        }
        if !model.recentImports.isEmpty, y + 1 < top + height {
            y += 1
            screen.put(" Recent imports", row: y, column: 0, style: CellStyle(bold: true, color: .section))
            y += 1
            for note in model.recentImports.prefix(3) where y < top + height {
                let words = BackgroundImport.summary(count: note.changes, devices: note.devices.sorted())
                screen.put(TextWidth.truncate("  \(time(note.at))  \(words)", to: width - 1), row: y, column: 0)
                y += 1
            }
        }
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDateInToday(date) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
