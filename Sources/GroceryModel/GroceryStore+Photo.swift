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
                throw GroceryError.invalidName(
                    field: "photo",
                    reason:
                        "\(data.count) bytes is more than the \(Self.maximumPhotoSize / 1024 / 1024) MB a photo may have"
                )
            }
        }
        return try objects.save(author: data == nil ? "item photo rm" : "item photo") { context in
            try Self.setPhoto(id, data, in: context)
            return try Self.itemRow(id: id, context.db)!
        }
    }

    /// ``setPhoto(_:_:)`` inside a save.
    static func setPhoto(_ id: ItemID, _ data: Data?, in context: SaveContext) throws {
        guard let values = try context.values(of: id) else {
            throw GroceryError.notFound(kind: "item", reference: id.description)
        }
        let current: PhotoID? = if case .reference(let photo)? = values["photo"] { PhotoID(photo) } else { nil }
        switch (data, current) {
        case (let data?, let photo?):
            try context.update(photo, values: Self.photoValues(data, context))
        case (let data?, nil):
            let photo = try context.insert(PhotoEntity.self, values: Self.photoValues(data, context))
            try context.update(id, values: ["photo": photo.reference])
        case (nil, let photo?):
            try context.update(id, values: ["photo": .null])
            try context.delete(photo)
        case (nil, nil):
            break
        }
    }

    /// A photo's values as saved now.
    static func photoValues(_ data: Data, _ context: SaveContext) -> [String: PropertyValue] {
        ["data": .data(data), "modified": .date(context.now)]
    }
}
