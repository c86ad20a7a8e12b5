import Foundation
import GRDB
import Ubiquity

/// An item's history as this device knows it (``ChangeHistory``): its own saves and the logs it
/// imported, kept ninety days — who changed what, when each change was made.
public struct ItemHistory: Equatable, Sendable {
    /// One save or imported log's changes of the item.
    public struct Entry: Equatable, Sendable {
        public enum Change: Equatable, Sendable {
            case added(name: String)
            /// A field from one value to another; `from` is `nil` when no earlier value is known.
            case field(String, from: String?, to: String)
            case listed(Bool)
            case collected(Bool)
            case removed
            case merged(into: String)

            /// "quantity 2 → 3", "collected", "merged as a duplicate into "Milk"".
            public var words: String {
                switch self {
                case .added(let name): "added \(name.debugDescription)"
                case .field(let field, let from, let to): "\(field) \(from.map { "\($0) → " } ?? "set to ")\(to)"
                case .listed(let on): on ? "put on the list" : "taken off the list"
                case .collected(let on): on ? "collected" : "uncollected"
                case .removed: "removed"
                case .merged(let into): "merged as a duplicate into \(into.debugDescription)"
                }
            }
        }

        /// When the change was made, by its clock reading (not when it arrived).
        public let at: Date
        public let person: String?
        public let device: String?
        public let changes: [Change]

        /// "Anna (kitchen)", "Ben" (a person named after the device), "someone" (a log of an
        /// earlier build).
        public var who: String {
            guard let person else { return device ?? "someone" }
            guard let device, device != person else { return person }
            return "\(person) (\(device))"
        }
    }

    /// The item's name: as it is now, or as it last was.
    public let name: String
    /// Whether the item is in the store now (not removed, not merged away).
    public let exists: Bool
    public let entries: [Entry]
}

extension GroceryStore {
    /// The history of the item `reference` names: an item of the store (its name or an ID
    /// prefix), with the copies merged into it; else every item the history knows by that name
    /// (removed, or merged into another).
    ///
    /// - Throws: ``GroceryError/notFound(kind:reference:)`` when neither knows it.
    public func itemHistory(_ reference: String) throws -> ItemHistory {
        let current = try? resolveItem(reference)
        let ids: [GlobalID] =
            try current.map { [$0.id.globalID] }
            ?? objects.historyObjects(of: GrocerySchema.Entity.item, whereEver: "name", was: reference)
        guard !ids.isEmpty else { throw GroceryError.notFound(kind: "item", reference: reference) }
        return try history(of: ids, current: current)
    }

    /// The history of the item `id` (in the store or not), with the copies merged into it.
    public func itemHistory(of id: ItemID) throws -> ItemHistory {
        try history(of: [id.globalID], current: try item(id: id))
    }

    private func history(of ids: [GlobalID], current: ItemRow?) throws -> ItemHistory {
        // The copies merged into it (a deduplication): their past is its past.
        let copies = try objects.historyObjects(of: GrocerySchema.Entity.item, mergedInto: ids)
        return try describe(try objects.history(of: ids + copies), current: current)
    }

    private func describe(_ history: [ChangeHistory.Entry], current: ItemRow?) throws -> ItemHistory {
        var known: [GlobalID: [String: PropertyValue]] = [:]
        // Objects whose insert the history holds: a property it did not give was empty.
        var inserted: Set<GlobalID> = []
        var entries: [ItemHistory.Entry] = []
        var lastName = current?.name
        for entry in history {
            var state = known[entry.object.id] ?? [:]
            var changes: [ItemHistory.Entry.Change] = []
            switch entry.kind {
            case .insert:
                inserted.insert(entry.object.id)
                let name = entry.values["name"].flatMap(Self.text) ?? GrocerySchema.defaultItemName
                changes.append(.added(name: name))
            case .update:
                for property in entry.values.keys.sorted() where property != "modified" {
                    let value = entry.values[property]!
                    switch property {
                    case "listed": if case .bool(let on) = value { changes.append(.listed(on)) }
                    case "collected": if case .bool(let on) = value { changes.append(.collected(on)) }
                    default:
                        let label = Self.label(of: property)
                        let to = try self.text(of: value, property: property)
                        let earlier = state[property] ?? (inserted.contains(entry.object.id) ? .null : nil)
                        let from = try earlier.map { try self.text(of: $0, property: property) }
                        if from != to { changes.append(.field(label, from: from, to: to)) }
                    }
                }
            case .delete:
                changes.append(.removed)
            case .merge:
                let survivor = try entry.mergedInto.flatMap { try item(id: ItemID($0))?.name } ?? "another item"
                changes.append(.merged(into: survivor))
            }
            for (property, value) in entry.values { state[property] = value }
            known[entry.object.id] = state
            if case .string(let name)? = entry.values["name"], current == nil { lastName = name }
            guard !changes.isEmpty else { continue }
            entries.append(
                ItemHistory.Entry(
                    at: entry.at, person: entry.person.map(Self.shown), device: entry.device.map(Self.shown),
                    changes: changes))
        }
        return ItemHistory(name: current?.name ?? lastName ?? "", exists: current != nil, entries: entries)
    }

    /// A person's or device's name as another peer's log gave it, safe to print: one holding a
    /// control character, a line separator or a bidirectional override (a buggy or hostile
    /// peer; `person set` refuses them) is shown quoted with them escaped, a long one shortened.
    static func shown(_ name: String) -> String {
        let short = ValueRule.shortened(name)
        guard short.unicodeScalars.contains(where: ValueRule.isForbidden) else { return short }
        let escaped = short.unicodeScalars.map { scalar in
            ValueRule.isForbidden(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return "\"" + escaped.joined() + "\""
    }

    private static func label(of property: String) -> String {
        switch property {
        case "locationAtHome": "home location"
        case "locationAtShop": "shop aisle"
        default: property
        }
    }

    private static func text(_ value: PropertyValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// A value as people read it: a quantity as the lists show it, a link by its name.
    private func text(of value: PropertyValue, property: String) throws -> String {
        switch value {
        case .null: return "(none)"
        case .string(let text): return text
        case .double(let number): return QuantityFormat.string(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "yes" : "no"
        case .date(let date): return Timestamp.string(date)
        case .reference(let target):
            let kinds: [String: CatalogKind] = ["unit": .unit, "locationAtHome": .home, "locationAtShop": .shop]
            guard let kind = kinds[property] else { return property == "photo" ? "a photo" : target.description }
            return try objects.read { db in
                try String.fetchOne(
                    db, sql: "SELECT \(kind.nameAttribute) FROM \(kind.table) WHERE id = ?",
                    arguments: [target.description])
            } ?? "(removed)"
        case .data, .blob: return "(data)"
        }
    }
}
