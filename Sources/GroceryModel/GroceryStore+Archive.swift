import Foundation
import GRDB
import Ubiquity

extension GroceryStore {
    /// Imports an archive in one save: all of it, or nothing when a record is invalid.
    ///
    /// - Parameter source: what to call the file in messages.
    /// - Throws: ``GroceryError/importFailed(file:reason:)``.
    @discardableResult
    public func importArchive(_ archive: GroceryArchive, source: String) throws -> ImportSummary {
        do {
            return try objects.save(author: "import \(URL(fileURLWithPath: source).lastPathComponent)") { context in
                try ArchiveImporter.apply(archive, in: context)
            }
        } catch let error as ArchiveError {
            throw GroceryError.importFailed(file: source, reason: error.description)
        }
    }

    /// Reads a file and imports it (see ``importArchive(_:source:)``).
    ///
    /// - Parameter format: the file's format; `nil` to tell from its name.
    @discardableResult
    public func importFile(path: String, format: ArchiveFormat? = nil) throws -> ImportSummary {
        let format = try format ?? ArchiveFormat.detect(path: path)
        let archive: GroceryArchive
        do {
            archive = try format.read(path: path)
        } catch let error as ArchiveError {
            throw GroceryError.importFailed(file: path, reason: error.description)
        }
        return try importArchive(archive, source: path)
    }

    /// Everything in the store as an archive: units, locations and items sorted by name, with
    /// photos and modification dates. From model version 3, a version 2 archive: with shops,
    /// other shops' aisles in walking order, the positions of moved aisles and items' aisles in
    /// other shops; before, version 1, which older builds read.
    public func exportArchive() throws -> GroceryArchive {
        var archive = GroceryArchive()
        for kind in CatalogKind.allCases {
            for entry in try entries(kind) {
                archive.append(CatalogRecord(name: entry.name, modified: entry.modified), to: kind)
            }
        }
        let photos = try objects.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, data FROM itemPhoto WHERE data IS NOT NULL")
                    .map { (($0["id"] as PhotoID), ($0["data"] as Data)) })
        }
        let rows = try items()
        archive.items = rows.map { row in
            var record = ItemRecord(name: row.item.name)
            record.quantity = row.item.quantity
            record.unit = row.unitName
            record.homeLocation = row.homeLocationName
            record.shopLocation = row.shopLocationName
            record.listed = row.item.listed
            record.collected = row.item.collected
            record.modified = row.item.modified
            record.note = row.item.note
            record.photo = row.item.photo.flatMap { photos[$0] }
            return record
        }
        if modelVersion >= 3 {
            try addShops(to: &archive, items: rows)
        }
        return archive
    }

    /// Shops, positions and items' aisles (archive version 2).
    private func addShops(to archive: inout GroceryArchive, items rows: [ItemRow]) throws {
        archive.version = GroceryArchive.shopsVersion
        let defaultAisles = try aisles(in: .defaultShop)
        let positions = Dictionary(defaultAisles.map { ($0.id.globalID, $0.position) }) { first, _ in first }
        archive.shopLocations = try entries(.shop).map { entry in
            CatalogRecord(
                name: entry.name, modified: entry.modified, position: positions[entry.id.globalID] ?? nil)
        }
        archive.shops = try shops().map { shop in
            guard !shop.isDefault else { return ShopRecord(name: shop.name, isDefault: true, modified: shop.modified) }
            let aisles = try aisles(in: shop.id).map {
                CatalogRecord(name: $0.name, modified: $0.modified, position: $0.position)
            }
            return ShopRecord(name: shop.name, modified: shop.modified, aisles: aisles)
        }
        let others = try otherShopsAisles()
        for (index, row) in rows.enumerated() {
            guard let found = others[row.id.description], !found.isEmpty else { continue }
            archive.items[index].aisles = found.map { ItemAisleRecord(shop: $0.shop, aisle: $0.aisle) }
        }
    }
}
