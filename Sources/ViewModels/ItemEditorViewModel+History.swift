import Foundation
import GroceryModel

/// Whose the item's changes were, from this device's history (``ItemHistory``): a line under the
/// editor's title ("added by Anna (kitchen), Tue 18:02 · ticked by Ben, 18:40") and the whole
/// history behind `h`.
extension ItemEditorViewModel {
    /// Reads the item's history again: when the editor opens and whenever the store changed.
    func readHistory() {
        history = try? store.itemHistory(of: id)
    }

    /// Who added the item and who changed it last, with when, as of `now`; `nil` when this
    /// device's history knows nothing of it.
    public func authors(now: Date) -> String? {
        let day = Calendar.current.startOfDay(for: now)
        if let shown = authorsShown, shown.day == day { return shown.line }
        let line = authorsLine(now: now)
        authorsShown = (day, line)
        return line
    }

    private func authorsLine(now: Date) -> String? {
        guard let entries = history?.entries, let last = entries.last else { return nil }
        let added = entries.last { $0.changes.contains(where: Self.isAdded) }
        var parts: [String] = []
        if let added { parts.append("added by \(added.who), \(Self.time(added.at, now: now))") }
        if last != added, let change = last.changes.first {
            let verb = last.changes.count > 1 ? "edited" : Self.verb(change)
            parts.append("\(verb) by \(last.who), \(Self.time(last.at, now: now))")
        }
        return parts.joined(separator: " · ")
    }

    /// The whole history, newest first: "Tue 18:02  Anna (kitchen): quantity 2 → 3".
    public func historyLines(now: Date) -> [String] {
        guard let history else { return ["The history cannot be read."] }
        guard !history.entries.isEmpty else { return ["No change of \(history.name) is known on this device."] }
        return history.entries.reversed().map { entry in
            "\(Self.time(entry.at, now: now))  \(entry.who): \(entry.changes.map(\.words).joined(separator: ", "))"
        }
    }

    private static func isAdded(_ change: ItemHistory.Entry.Change) -> Bool {
        if case .added = change { return true }
        return false
    }

    private static func verb(_ change: ItemHistory.Entry.Change) -> String {
        switch change {
        case .added: "added"
        case .field(let field, _, _): "\(field) changed"
        case .listed(let on): on ? "listed" : "unlisted"
        case .collected(let on): on ? "ticked" : "unticked"
        case .removed: "removed"
        case .merged: "merged"
        }
    }

    /// "18:40" today, "Tue 18:02" within the week, "24 Nov 18:02" this year, else "24 Nov 2025".
    static func time(_ date: Date, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let calendar = Calendar.current
        if calendar.isDate(date, inSameDayAs: now) {
            formatter.dateFormat = "HH:mm"
        } else if date < now, now.timeIntervalSince(date) < 6 * 86_400 {
            formatter.dateFormat = "EEE HH:mm"
        } else if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            formatter.dateFormat = "d MMM HH:mm"
        } else {
            formatter.dateFormat = "d MMM yyyy"
        }
        return formatter.string(from: date)
    }
}
