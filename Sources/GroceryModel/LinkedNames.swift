import Foundation
import GRDB
import Ubiquity

/// The names of every unit, home location and shop aisle, and every photo's size: read once to
/// make rows of many items (``ItemRow``), instead of joining each item to four tables.
///
/// At 10k items the joins were most of SQLite's time in `item ls` (two B-tree searches for each
/// link of each row, ~12 of ~20 ms); these tables hold tens of rows, a photo's size is its blob's
/// length, and a lookup here costs a hash of the ID. A link to a row that does not exist has no
/// name, as the `LEFT JOIN` gave.
struct LinkedNames {
    private var units: [UnitID: String] = [:]
    private var homeLocations: [HomeLocationID: String] = [:]
    private var shopLocations: [ShopLocationID: String] = [:]
    private var photoSizes: [PhotoID: Int] = [:]

    init(_ db: Database) throws {
        // IDs are read as text: a row whose ID is not one (a store edited by hand) is left out,
        // as the join left it unmatched, rather than stopping the listing.
        func names<Entity>(_ kind: CatalogKind, of _: Entity.Type) throws -> [EntityID<Entity>: String] {
            let sql = "SELECT id, \(kind.nameAttribute.quotedDatabaseIdentifier) FROM \(kind.table.quotedDatabaseIdentifier)"
            var names: [EntityID<Entity>: String] = [:]
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                if let id = (row[0] as String?).flatMap(EntityID<Entity>.init), let name = row[1] as String? { names[id] = name }
            }
            return names
        }
        units = try names(.unit, of: UnitEntity.self)
        homeLocations = try names(.home, of: HomeLocationEntity.self)
        shopLocations = try names(.shop, of: ShopLocationEntity.self)
        let photos = try Row.fetchCursor(db, sql: "SELECT id, length(data) FROM itemPhoto")
        while let row = try photos.next() {
            if let id = (row[0] as String?).flatMap(PhotoID.init), let size = row[1] as Int? { photoSizes[id] = size }
        }
    }

    /// The item with the names it points at.
    func row(of item: Item) -> ItemRow {
        ItemRow(item: item,
                unitName: item.unit.flatMap { units[$0] },
                homeLocationName: item.locationAtHome.flatMap { homeLocations[$0] },
                shopLocationName: item.locationAtShop.flatMap { shopLocations[$0] },
                photoSize: item.photo.flatMap { photoSizes[$0] })
    }
}
