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
            return status.enabled
                ? "on, but signed out: nothing syncs  (i signs in)" : "off  (i signs in, then c turns it on)"
        }
        return status.enabled ? "on   (c turns it off)" : "off  (c turns it on)"
    }

    /// One row of the screen: a field and its value, a section's title, a line of text.
    enum Row {
        case field(String, String, CellStyle)
        case title(String, String)
        case text(String, CellStyle)
        case blank
    }

    /// Everything the screen shows, top to bottom: it scrolls (↑↓ PgUp PgDn Home End) when the
    /// terminal is shorter.
    static func rows(_ model: CloudViewModel) -> [Row] {
        guard let status = model.status else { return [.text("Reading the cloud status…", CellStyle(dim: true))] }
        var lines: [(String, String, CellStyle)] = [
            ("Enable cloud sync", Self.enableLine(status), CellStyle(bold: true)),
            ("Account", status.account ?? "(signed out)   (i sign in)", .plain),
            ("Device", status.device, .plain),
            (
                "Using local storage", Self.usingLocalStorage(status),
                status.usingLocalStorage && status.enabled ? CellStyle(color: .warning) : .plain
            ),
            ("Store", status.store, .plain),
            ("Peer ID", status.peerID, .plain),
            ("Model version", "\(status.modelVersion)", .plain),
        ]
        if let cloud = status.cloud {
            lines += [
                (
                    "Offline", cloud.offlineReason.map { "yes (\($0))" } ?? "no",
                    cloud.offline ? CellStyle(color: .warning) : .plain
                ),
                ("Last sync", cloud.lastSync.map(Self.time) ?? "never", .plain),
                ("Pending", "\(cloud.pendingExport) to export, \(cloud.pendingImport) to import", .plain),
                ("Cloud folder", cloud.folder, .plain),
            ]
            if let verify = cloud.lastVerify {
                lines.append(
                    (
                        "Peers agree?",
                        verify.diverged.isEmpty
                            ? (verify.agreed.isEmpty
                                ? "nothing to compare yet" : "yes, with " + verify.agreed.joined(separator: ", "))
                            : "NO: data differs from " + verify.diverged.joined(separator: ", ")
                                + " (grocery-dude cloud verify)",
                        verify.diverged.isEmpty ? .plain : CellStyle(color: .warning)
                    ))
            }
            for clock in cloud.clocksAhead {
                let who = clock.device.map { "device \($0.debugDescription)" } ?? "peer \(clock.peer)"
                lines.append(
                    (
                        "Clock ahead",
                        "\(who)'s clock was \(DurationText.about(clock.ahead)) ahead of this one's (\(clock.file)): "
                            + "its edits win over concurrent ones until it is set right", CellStyle(color: .warning)
                    ))
            }
            for file in cloud.refused {
                lines.append(
                    (
                        "Refused", file.summary + (file.holdsDeviceBack ? " — its later logs wait (K skips it)" : ""),
                        CellStyle(color: .warning)
                    ))
            }
        }
        var rows = lines.map { Row.field($0.0, $0.1, $0.2) }
        if !status.kept.isEmpty {
            rows += [.blank, .title("Kept aside on this device", "(M merges the newest back, asks)")]
            for kept in status.kept {
                let items = kept.items.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "unreadable"
                rows.append(
                    .text(
                        "  \(Self.time(kept.kept))  \(kept.label): \(items)  \(kept.fileName)",
                        CellStyle(color: .warning)))
            }
        }
        rows += [.blank, .title("Recent transitions", "(m: in full)")]
        for entry in status.transitions.prefix(3) {
            rows.append(
                .text(
                    "  \(entry.at.prefix(19).replacingOccurrences(of: "T", with: " "))  \(entry.transition): \(entry.detail)",
                    .plain))
        }
        if status.transitions.isEmpty { rows.append(.text("  none", CellStyle(dim: true))) }
        if !model.recentImports.isEmpty {
            rows += [.blank, .title("Recent imports", "")]
            for note in model.recentImports.prefix(3) {
                rows.append(
                    .text(
                        "  \(time(note.at))  \(BackgroundImport.summary(count: note.changes, devices: note.devices.sorted()))",
                        .plain))
            }
        }
        return rows
    }

    /// The largest useful scroll: the last row at the bottom.
    static func maximumScroll(_ model: CloudViewModel, height: Int) -> Int {
        max(0, rows(model).count - height)
    }

    static func draw(_ model: CloudViewModel, into screen: inout ScreenBuffer, top: Int, height: Int, scroll: Int = 0) {
        let width = screen.width
        let all = rows(model)
        let first = min(max(0, scroll), max(0, all.count - height))
        let labelWidth = width >= 60 ? 21 : 14
        for (offset, row) in all.dropFirst(first).prefix(height).enumerated() {
            let y = top + offset
            switch row {
            case .field(let label, let value, let style):
                screen.put(
                    " " + TextWidth.truncate(label, to: labelWidth - 2), row: y, column: 0, style: CellStyle(dim: true))
                screen.put(
                    TextWidth.truncate(value, to: width - labelWidth - 1), row: y, column: labelWidth, style: style)
            case .title(let title, let note):
                screen.put(" " + title, row: y, column: 0, style: CellStyle(bold: true, color: .section))
                if !note.isEmpty {
                    screen.put(
                        "  " + note, row: y, column: 1 + TextWidth.columns(of: title), style: CellStyle(dim: true))
                }
            case .text(let text, let style):
                screen.put(TextWidth.truncate(text, to: width - 1), row: y, column: 0, style: style)
            case .blank:
                break
            }
        }
        // More above or below: said on the screen's edge, as a long dialog does.
        if first > 0 { screen.put(" ↑ more ", row: top, column: max(0, width - 9), style: CellStyle(bold: true)) }
        if first + height < all.count {
            screen.put(" ↓ more ", row: top + height - 1, column: max(0, width - 9), style: CellStyle(bold: true))
        }
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDateInToday(date) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
