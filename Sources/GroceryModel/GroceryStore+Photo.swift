import Foundation
import GRDB
import Ubiquity

extension GroceryStore {
    /// The largest photo an item takes: the photo syncs as one blob to every device.
    public static let maximumPhotoSize = GrocerySchema.maximumPhotoBytes

    /// Gives an item a photo (replacing the one it has), or removes its photo with `nil`.
    ///
    /// - Throws: ``GroceryError.invalidName(field:reason:)`` for an empty or oversized photo.
    @discardableResult
    public func setPhoto(_ id: ItemID, _ data: Data?) throws -> ItemRow {
        if let data {
            guard !data.isEmpty else { throw GroceryError.invalidName(field: "photo", reason: "the file is empty") }
            guard data.count <= Self.maximumPhotoSize else {
                throw GroceryError.invalidName(field: "photo", reason: "\(data.count) bytes is more than the \(Self.maximumPhotoSize / 1024 / 1024) MB a photo may have")
            }
        }
        return try objects.save(author: data == nil ? "item photo rm" : "item photo") { context in
            guard let values = try context.values(of: GrocerySchema.Entity.item, id: id) else {
                throw GroceryError.notFound(kind: "item", reference: id.description)
            }
            let current: GlobalID? = if case .reference(let photo)? = values["photo"] { photo } else { nil }
            switch (data, current) {
            case (let data?, let photo?):
                try context.update(GrocerySchema.Entity.itemPhoto, id: photo, values: Self.photoValues(data, context))
            case (let data?, nil):
                let photo = try context.insert(GrocerySchema.Entity.itemPhoto, values: Self.photoValues(data, context))
                try context.update(GrocerySchema.Entity.item, id: id, values: ["photo": .reference(photo)])
            case (nil, let photo?):
                try context.update(GrocerySchema.Entity.item, id: id, values: ["photo": .null])
                try context.delete(GrocerySchema.Entity.itemPhoto, id: photo)
            case (nil, nil):
                break
            }
            return try Self.itemRow(id: id, context.db)!
        }
    }

    /// A photo's values as saved now.
    static func photoValues(_ data: Data, _ context: SaveContext) -> [String: PropertyValue] {
        ["data": .data(data), "modified": .date(context.now)]
    }
}
