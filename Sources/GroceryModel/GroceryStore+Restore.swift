import Foundation
import GRDB
import Ubiquity

/// An item as it was before a change, with its photo's bytes: what undo puts back.
public struct ItemSnapshot: Hashable, Sendable {
    public let row: ItemRow
    public let photo: Data?
    /// Whether the photo was read (a change that may touch it): then undo puts it back too,
    /// or takes it away if the item had none.
    public var photoRead = false
}

extension GroceryStore {
    /// The items' current state, for undoing a change about to be made to them.
    public func snapshots(of ids: [ItemID], withPhotos: Bool = false) throws -> [ItemSnapshot] {
        let rows = try itemRows(ids)
        return try ids.compactMap { id in
            guard let row = rows[id] else { return nil }
            let photo: Data? =
                try withPhotos
                ? row.item.photo.flatMap { photo in
                    try objects.read { db in
                        try Data.fetchOne(db, sql: "SELECT data FROM itemPhoto WHERE id = ?", arguments: [photo])
                    }
                } : nil
            return ItemSnapshot(row: row, photo: photo, photoRead: withPhotos)
        }
    }

    /// Puts items back as they were, in one save: an item that still exists takes its old values
    /// (its unit and locations by ID, or by name when those were deleted since); a deleted one
    /// comes back as a new object (a delete is final on every device: the same ID inserted again
    /// would be ignored by the peers that saw the delete), with its photo.
    ///
    /// - Parameters:
    ///   - absent: items that were not there in the state restored (a delete redone): deleted in
    ///     the same save.
    ///   - aliases: the IDs items came back under, earlier ones included: read to find an item
    ///     brought back before, and added to.
    /// - Returns: how many items were restored.
    @discardableResult
    public func restore(
        _ snapshots: [ItemSnapshot], removing absent: [ItemID] = [],
        aliases: inout ItemAliases, author: String = "undo"
    ) throws -> Int {
        var found = aliases
        defer { aliases = found }
        return try objects.save(author: author) { context in
            for id in absent { try context.delete(found.current(id)) }
            for snapshot in snapshots {
                let row = snapshot.row
                let item = row.item
                var values: [String: PropertyValue] = [
                    "name": .string(item.name), "quantity": .double(item.quantity),
                    "listed": .bool(item.listed), "collected": .bool(item.collected),
                ]
                if context.schema.version >= 2 { values["note"] = item.note.map(PropertyValue.string) ?? .null }
                for (kind, name) in [
                    (CatalogKind.unit, row.unitName), (.home, row.homeLocationName), (.shop, row.shopLocationName),
                ] {
                    if let id = item.link(kind)?.globalID, try context.values(of: kind.entity, id: id) != nil {
                        values[kind.itemRelationship] = .reference(id)
                    } else if let name {
                        values[kind.itemRelationship] = .reference(
                            try CatalogLinker.findOrCreate(kind, named: name, in: context))
                    } else {
                        values[kind.itemRelationship] = .null
                    }
                }
                let id = found.current(item.id)
                if try context.values(of: id) != nil {
                    try context.update(id, values: values)
                    // Its photo too, when the snapshot knows it: none then, or the one it had.
                    if !snapshot.photoRead {
                        // A change that could not touch the photo: it stays as it is.
                    } else if row.photoSize == nil {
                        try Self.setPhoto(id, nil, in: context)
                    } else if let photo = snapshot.photo, try Self.photoData(of: id, context) != photo {
                        try Self.setPhoto(id, photo, in: context)
                    }
                } else {
                    if let photo = snapshot.photo {
                        values["photo"] = try context.insert(PhotoEntity.self, values: Self.photoValues(photo, context))
                            .reference
                    }
                    found.add(id, cameBackAs: try context.insert(ItemEntity.self, values: values))
                }
            }
            return snapshots.count
        }
    }

    /// The photo `id` has now, inside a save.
    private static func photoData(of id: ItemID, _ context: SaveContext) throws -> Data? {
        guard case .reference(let photo)? = try context.values(of: id)?["photo"],
            case .data(let data)? = try context.values(of: PhotoID(photo))?["data"]
        else { return nil }
        return data
    }
}
