import Foundation
import Ubiquity

/// Puts the shipped default data into a store, inside a save of shipped data
/// (``ObjectStore/saveShipped(author:reading:_:)`` with ``DefaultData/reading``): each shipped
/// object under its own ID (``DefaultData/id(_:named:)``), dated ``DefaultData/shippedDate``.
///
/// Only what the store lacks is inserted. An object it has keeps what it has (a user may have
/// renamed it or put it on the list); one it deleted stays deleted, and a shipped item's link
/// to a deleted unit or location is left empty, as every peer reads a link to a deleted object.
/// Objects of other IDs are never touched, even when they have a shipped name (a user's own, or
/// default data an earlier build gave random IDs): deduplication deals with those by name.
struct DefaultDataLoader {
    let context: SaveContext

    /// Inserts what the store lacks of `archive` (the shipped data) through `context`.
    static func insertMissing(_ archive: GroceryArchive, in context: SaveContext) throws -> ImportSummary {
        let loader = DefaultDataLoader(context: context)
        var summary = ImportSummary()
        for kind in CatalogKind.allCases {
            // Every entry the items name, listed or not, once.
            var names: [String] = []
            for name in archive.records(kind).map(\.name) + archive.items.compactMap({ $0.name(of: kind) }) {
                let name = try Validation.importedName(name, field: kind.noun)
                if !names.contains(name) { names.append(name) }
            }
            for name in names {
                let inserted = try loader.insert(
                    kind.entity, id: DefaultData.id(kind.entity, named: name),
                    values: [kind.nameAttribute: .string(name)])
                summary[kind].count(inserted)
            }
        }
        for item in archive.items {
            summary.items.count(try loader.insert(item))
        }
        return summary
    }

    /// Inserts a shipped item; returns whether it was inserted. Like an import, it sets what the
    /// file says and leaves the rest to the model's defaults.
    private func insert(_ item: ItemRecord) throws -> Bool {
        let name = try Validation.importedName(item.name, field: "item name")
        var values: [String: PropertyValue] = ["name": .string(name)]
        if let quantity = item.quantity { values["quantity"] = .double(try Validation.quantity(quantity)) }
        if let listed = item.listed { values["listed"] = .bool(listed) }
        if let collected = item.collected { values["collected"] = .bool(collected) }
        if let note = item.note, context.schema.version >= 2 {
            values["note"] = .string(try Validation.importedName(note, field: "note"))
        }
        for kind in CatalogKind.allCases {
            guard let linked = item.name(of: kind) else { continue }
            let target = DefaultData.id(kind.entity, named: try Validation.importedName(linked, field: kind.noun))
            values[kind.itemRelationship] = try context.isDeleted(target) ? .null : .reference(target)
        }
        let id = DefaultData.id(GrocerySchema.Entity.item, named: name)
        if let photo = item.photo {
            // The photo belongs to its item: inserted with it, or not at all.
            guard try isMissing(GrocerySchema.Entity.item, id: id) else { return false }
            let photoID = DefaultData.id(GrocerySchema.Entity.itemPhoto, named: name)
            if try insert(GrocerySchema.Entity.itemPhoto, id: photoID, values: ["data": .data(photo)]) {
                values["photo"] = .reference(photoID)
            }
        }
        return try insert(GrocerySchema.Entity.item, id: id, values: values)
    }

    /// Inserts a shipped object, dated when the data shipped, unless the store has it or deleted
    /// it. Returns whether it was inserted.
    private func insert(_ entity: String, id: GlobalID, values: [String: PropertyValue]) throws -> Bool {
        guard try isMissing(entity, id: id) else { return false }
        try context.insert(
            entity, id: id, values: values.merging(["modified": .date(DefaultData.shippedDate)]) { value, _ in value })
        return true
    }

    /// Neither held nor deleted.
    private func isMissing(_ entity: String, id: GlobalID) throws -> Bool {
        try context.values(of: entity, id: id) == nil && !context.isDeleted(id)
    }
}

extension ImportSummary.Counts {
    fileprivate mutating func count(_ inserted: Bool) {
        if inserted { self.inserted += 1 } else { unchanged += 1 }
    }
}

extension ItemRecord {
    /// The unit or location the item names, if any.
    fileprivate func name(of kind: CatalogKind) -> String? {
        let name =
            switch kind {
            case .unit: unit
            case .home: homeLocation
            case .shop: shopLocation
            }
        return name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }
}
