import Foundation
import GRDB

/// A grocery item, as stored.
public struct Item: Hashable, Sendable, Identifiable {
    public var id: ItemID
    public var name: String
    public var quantity: Double
    /// On the shopping list (Prepare's toggle).
    public var listed: Bool
    /// Ticked off in the shop (Shop's toggle).
    public var collected: Bool
    public var modified: Date
    public var unit: UnitID?
    public var locationAtHome: HomeLocationID?
    public var locationAtShop: ShopLocationID?
    public var photo: PhotoID?
    /// Model version 2 and later; `nil` on a version 1 store.
    public var note: String?
}

extension Item: FetchableRecord, TableRecord {
    public static let databaseTableName = "item"

    public enum Columns {
        public static let id = Column("id")
        public static let name = Column("name")
        public static let quantity = Column("quantity")
        public static let listed = Column("listed")
        public static let collected = Column("collected")
        public static let modified = Column("modified")
        public static let unit = Column("unit")
        public static let locationAtHome = Column("locationAtHome")
        public static let locationAtShop = Column("locationAtShop")
        public static let photo = Column("photo")
        public static let note = Column("note")
    }

    /// The columns ``init(row:)`` reads, in ``ItemColumn``'s order.
    static func selection(table: String = "item", modelVersion: Int) -> String {
        ItemColumn.selected(modelVersion: modelVersion).map { "\(table).\($0.sqlName)" }.joined(separator: ", ")
    }

    /// Reads a row selected with ``selection(table:modelVersion:)``.
    public init(row: Row) throws {
        self.init(row: row, offset: 0, hasNote: row.count > ItemColumn.note.index())
    }

    /// Reads the item's columns starting at `offset`, by position: GRDB's lookup by name
    /// lowercases the name on every call, a tenth of the time of listing 10k items.
    init(row: Row, offset: Int, hasNote: Bool) {
        self.init(
            row: row, offset: offset, hasNote: hasNote, unit: row[ItemColumn.unit.index(from: offset)],
            locationAtHome: row[ItemColumn.locationAtHome.index(from: offset)],
            locationAtShop: row[ItemColumn.locationAtShop.index(from: offset)])
    }

    /// Reads the item's columns but its links to a unit and locations, which the caller read.
    init(
        row: Row, offset: Int, hasNote: Bool, unit: UnitID?, locationAtHome: HomeLocationID?,
        locationAtShop: ShopLocationID?
    ) {
        id = row[ItemColumn.id.index(from: offset)]
        name = row[ItemColumn.name.index(from: offset)]
        quantity = row[ItemColumn.quantity.index(from: offset)]
        listed = row[ItemColumn.listed.index(from: offset)]
        collected = row[ItemColumn.collected.index(from: offset)]
        modified = Date(timeIntervalSince1970: row[ItemColumn.modified.index(from: offset)])
        self.unit = unit
        self.locationAtHome = locationAtHome
        self.locationAtShop = locationAtShop
        photo = row[ItemColumn.photo.index(from: offset)]
        note = hasNote ? row[ItemColumn.note.index(from: offset)] : nil
    }
}

extension Item {
    /// The unit, home location or shop aisle of `kind` the item points at.
    func link(_ kind: CatalogKind) -> CatalogEntryID? {
        switch kind {
        case .unit: unit.map(CatalogEntryID.unit)
        case .home: locationAtHome.map(CatalogEntryID.home)
        case .shop: locationAtShop.map(CatalogEntryID.shop)
        }
    }
}
