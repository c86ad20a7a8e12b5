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
    private var units = Catalog<UnitEntity>()
    private var homeLocations = Catalog<HomeLocationEntity>()
    private var shopLocations = Catalog<ShopLocationEntity>()
    private var photoSizes: [PhotoID: Int] = [:]

    init(_ db: Database) throws {
        // IDs are read as text: a row whose ID is not one (a store edited by hand) is left out,
        // as the join left it unmatched, rather than stopping the listing.
        func names<Entity>(_ kind: CatalogKind, of _: Entity.Type) throws -> Catalog<Entity> {
            let sql = "SELECT id, \(kind.nameAttribute.quotedDatabaseIdentifier) FROM \(kind.table.quotedDatabaseIdentifier)"
            var names = Catalog<Entity>()
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                if let id = (row[0] as String?).flatMap(EntityID<Entity>.init), let name = row[1] as String? { names.insert(id, name) }
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

    /// The item in the statement's current row, selected with `Item.selection`, with the names
    /// it points at: a link to a unit or location is found by its stored text where SQLite
    /// holds it, and the ID kept is the catalog's own (10k items point at a few dozen entries:
    /// no string made or checked for each link).
    func row(_ row: Row, statement: SQLiteStatement, hasNote: Bool) -> ItemRow {
        let unit = units.link(statement, Item.LinkColumn.unit)
        let home = homeLocations.link(statement, Item.LinkColumn.locationAtHome)
        let shop = shopLocations.link(statement, Item.LinkColumn.locationAtShop)
        let item = Item(row: row, offset: 0, hasNote: hasNote, unit: unit.id, locationAtHome: home.id, locationAtShop: shop.id)
        return ItemRow(item: item, unitName: unit.name, homeLocationName: home.name, shopLocationName: shop.name,
                       photoSize: item.photo.flatMap { photoSizes[$0] })
    }
}

/// One catalog's names by ID, and the same entries found by the bytes of an ID's stored text.
private struct Catalog<Entity: ModelEntity> {
    private var names: [EntityID<Entity>: String] = [:]
    private var byText = IDTextTable<(id: EntityID<Entity>, name: String)>()

    mutating func insert(_ id: EntityID<Entity>, _ name: String) {
        names[id] = name
        byText.insert(id.description, (id, name))
    }

    /// The ID in column `index` of the statement's row, and the name of the entry it links to
    /// (`nil` when there is none).
    func link(_ statement: SQLiteStatement, _ index: CInt) -> (id: EntityID<Entity>?, name: String?) {
        guard let bytes = GlobalID.textBytes(statement, index) else { return (nil, nil) }
        if let entry = byText.value(bytes) { return (entry.id, entry.name) }
        guard let id = EntityID<Entity>(sqliteStatement: statement, index: index) else { return (nil, nil) }
        return (id, names[id])
    }
}
