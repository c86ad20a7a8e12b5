import Foundation
import GRDB
import Ubiquity

/// The items as they were at a moment (`item ls --at`), rebuilt from this device's history
/// (``ChangeHistory``) and what it holds now.
///
/// "At a moment" goes by when each change was made — its clock reading on the device that made
/// it — not by when it arrived here: an edit made on a phone at 18:00 and synced at 18:30 is in
/// the list of 18:10. A device whose clock ran ahead dates its changes later than they were made,
/// so a list asked for between the real and the stated time does not show them yet.
///
/// Each item's values are today's, but for every property changed after the moment: that one
/// takes the last value the history gave it up to the moment. Items added after it are left
/// out; items removed or merged away after it are back, with the values they had. Units and
/// locations are named as they are named now, and a photo shows its size when it is still here.
public struct PastList: Sendable {
    /// The items in the lists' order.
    public let items: [ItemRow]
    /// When the oldest change this device's history holds was made (`nil`: it holds none).
    /// Before it, the list is known only where nothing changed since.
    public let historyBegins: Date?
    /// How many items changed after the moment in a way the history cannot undo (what they
    /// were before is older than what it holds): they are shown as they are now, or, removed
    /// since without a name the history knows, not at all.
    public let uncertain: Int
}

extension GroceryStore {
    /// The items as they were at `moment` (only those on the shopping list then, with
    /// `listedOnly`).
    public func pastList(at moment: Date, listedOnly: Bool = false) throws -> PastList {
        let current = Dictionary(uniqueKeysWithValues: try items().map { ($0.id.globalID, $0) })
        let history = try objects.history(of: GrocerySchema.Entity.item)
        var changes: [GlobalID: [ChangeHistory.Entry]] = [:]
        for entry in history { changes[entry.object.id, default: []].append(entry) }
        let names = try objects.read { db in try LinkedNames(db) }
        var rows: [ItemRow] = []
        var uncertain = 0
        for id in Set(current.keys).union(changes.keys) {
            let entries = changes[id] ?? []
            let now = current[id]
            if let insert = entries.first(where: { $0.kind == .insert }), insert.at > moment { continue }
            if now == nil {
                // Gone now: it was there if it went after the moment.
                guard let gone = entries.first(where: { $0.kind == .delete || $0.kind == .merge }), gone.at > moment
                else { continue }
            }
            var values = now.map(Self.values(of:)) ?? [:]
            if now == nil {
                for entry in entries where entry.kind == .insert || entry.kind == .update {
                    values.merge(entry.values) { $1 }
                }
            }
            let writes = entries.filter { $0.kind == .insert || $0.kind == .update }
            let changedAfter = Set(writes.filter { $0.at > moment }.flatMap(\.values.keys))
            let inserted = writes.contains { $0.kind == .insert }
            var unknown = false
            for property in changedAfter {
                if let then = writes.last(where: { $0.at <= moment && $0.values[property] != nil }) {
                    values[property] = then.values[property]
                } else if inserted {
                    values[property] = PropertyValue.null
                } else {
                    unknown = true
                }
            }
            // An item removed since whose name the history never held: there then, unknown.
            guard let item = Self.item(ItemID(id), values) else {
                uncertain += 1
                continue
            }
            if unknown { uncertain += 1 }
            guard !listedOnly || item.listed else { continue }
            rows.append(names.row(of: item))
        }
        rows.sort { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return PastList(
            items: NameOrder.sorted(rows, name: \.name), historyBegins: history.map(\.at).min(), uncertain: uncertain)
    }

    /// An item's values as its records write them.
    private static func values(of row: ItemRow) -> [String: PropertyValue] {
        let item = row.item
        func link(_ id: GlobalID?) -> PropertyValue { id.map(PropertyValue.reference) ?? .null }
        return [
            "name": .string(item.name), "quantity": .double(item.quantity), "listed": .bool(item.listed),
            "collected": .bool(item.collected), "modified": .date(item.modified),
            "unit": link(item.unit?.globalID), "locationAtHome": link(item.locationAtHome?.globalID),
            "locationAtShop": link(item.locationAtShop?.globalID), "photo": link(item.photo?.globalID),
            "note": item.note.map(PropertyValue.string) ?? .null,
        ]
    }

    /// The item those values make; `nil` without a name (nothing the history could show).
    private static func item(_ id: ItemID, _ values: [String: PropertyValue]) -> Item? {
        guard case .string(let name)? = values["name"] else { return nil }
        func number(_ value: PropertyValue?) -> Double? {
            switch value {
            case .double(let number): number
            case .integer(let number): Double(number)
            default: nil
            }
        }
        func flag(_ key: String) -> Bool {
            if case .bool(let on)? = values[key] { return on }
            return (number(values[key]) ?? 0) != 0
        }
        func link<Entity>(_ key: String) -> EntityID<Entity>? {
            if case .reference(let target)? = values[key] { return EntityID(target) }
            return nil
        }
        var modified = Date(timeIntervalSince1970: 0)
        if case .date(let date)? = values["modified"] {
            modified = date
        } else if let seconds = number(values["modified"]) {
            modified = Date(timeIntervalSince1970: seconds)
        }
        var note: String?
        if case .string(let text)? = values["note"] { note = text }
        return Item(
            id: id, name: name, quantity: number(values["quantity"]) ?? 1, listed: flag("listed"),
            collected: flag("collected"), modified: modified, unit: link("unit"),
            locationAtHome: link("locationAtHome"),
            locationAtShop: link("locationAtShop"), photo: link("photo"), note: note)
    }
}
