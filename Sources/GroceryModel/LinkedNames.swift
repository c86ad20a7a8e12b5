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
            let sql =
                "SELECT id, \(kind.nameAttribute.quotedDatabaseIdentifier) FROM \(kind.table.quotedDatabaseIdentifier)"
            var names = Catalog<Entity>()
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                if let id = (row[0] as String?).flatMap(EntityID<Entity>.init), let name = row[1] as String? {
                    names.insert(id, name)
                }
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

    /// The positions of the unit, home location and shop aisle the statement's current row
    /// (selected with `Item.selection`) links to, positions in ``names(_:)``; `-1` where it links to
    /// none, or to an entry not here.
    func linkPositions(_ statement: SQLiteStatement) -> (unit: Int32, home: Int32, shop: Int32) {
        (
            units.position(statement, ItemColumn.unit.rawValue),
            homeLocations.position(statement, ItemColumn.locationAtHome.rawValue),
            shopLocations.position(statement, ItemColumn.locationAtShop.rawValue)
        )
    }

    /// The names of the units, home locations or shop aisles, by position.
    func names(_ kind: CatalogKind) -> [String] {
        switch kind {
        case .unit: units.names
        case .home: homeLocations.names
        case .shop: shopLocations.names
        }
    }

    /// The row of an item made elsewhere (``PastList``): the names it points at, its photo's size.
    func row(of item: Item) -> ItemRow {
        ItemRow(
            item: item, unitName: units.name(item.unit), homeLocationName: homeLocations.name(item.locationAtHome),
            shopLocationName: shopLocations.name(item.locationAtShop), photoSize: item.photo.flatMap { photoSizes[$0] })
    }

    /// The size of the photo in the statement's column `index`, when it links to one here.
    func photoSize(_ statement: SQLiteStatement, _ index: CInt) -> Int? {
        guard !photoSizes.isEmpty, let photo = PhotoID(sqliteStatement: statement, index: index) else { return nil }
        return photoSizes[photo]
    }

    /// The item in the statement's current row, selected with `Item.selection`, with the names
    /// it points at: a link to a unit or location is found by its stored text where SQLite
    /// holds it, and the ID kept is the catalog's own (10k items point at a few dozen entries:
    /// no string made or checked for each link).
    func row(_ row: Row, statement: SQLiteStatement, hasNote: Bool) -> ItemRow {
        let unit = units.link(statement, ItemColumn.unit.rawValue)
        let home = homeLocations.link(statement, ItemColumn.locationAtHome.rawValue)
        let shop = shopLocations.link(statement, ItemColumn.locationAtShop.rawValue)
        let item = Item(
            row: row, offset: 0, hasNote: hasNote, unit: unit.id, locationAtHome: home.id, locationAtShop: shop.id)
        return ItemRow(
            item: item, unitName: unit.name, homeLocationName: home.name, shopLocationName: shop.name,
            photoSize: item.photo.flatMap { photoSizes[$0] })
    }
}

/// One catalog's names by ID, and the same entries found by the bytes of an ID's stored text;
/// each entry also has a position, in the order they were read (``LinkedNames/linkPositions(_:)``).
private struct Catalog<Entity: ModelEntity> {
    private var entries: [EntityID<Entity>: (name: String, position: Int32)] = [:]
    private var byText = IDTextTable<(id: EntityID<Entity>, name: String, position: Int32)>()
    /// The names by position.
    private(set) var names: [String] = []

    mutating func insert(_ id: EntityID<Entity>, _ name: String) {
        let position = entries[id]?.position ?? Int32(names.count)
        if position == names.count { names.append(name) } else { names[Int(position)] = name }
        entries[id] = (name, position)
        byText.insert(id.description, (id, name, position))
    }

    /// The name of the entry `id` names, if it is here.
    func name(_ id: EntityID<Entity>?) -> String? { id.flatMap { entries[$0]?.name } }

    /// The ID in column `index` of the statement's row, and the name of the entry it links to
    /// (`nil` when there is none).
    func link(_ statement: SQLiteStatement, _ index: CInt) -> (id: EntityID<Entity>?, name: String?) {
        guard let bytes = GlobalID.textBytes(statement, index) else { return (nil, nil) }
        if let entry = byText.value(bytes) { return (entry.id, entry.name) }
        guard let id = EntityID<Entity>(sqliteStatement: statement, index: index) else { return (nil, nil) }
        return (id, entries[id]?.name)
    }

    /// The position of the entry column `index` links to; `-1` when it links to none.
    func position(_ statement: SQLiteStatement, _ index: CInt) -> Int32 {
        guard let bytes = GlobalID.textBytes(statement, index) else { return -1 }
        if let entry = byText.value(bytes) { return entry.position }
        guard let id = EntityID<Entity>(sqliteStatement: statement, index: index) else { return -1 }
        return entries[id]?.position ?? -1
    }
}
