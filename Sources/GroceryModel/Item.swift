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

    /// The columns ``init(row:)`` reads, in this order: select them with ``selection(modelVersion:)``.
    static func selection(table: String = "item", modelVersion: Int) -> String {
        let columns =
            [
                "id", "name", "quantity", "listed", "collected", "modified",
                "unit", "locationAtHome", "locationAtShop", "photo",
            ] + (modelVersion >= 2 ? ["note"] : [])
        return columns.map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// Reads a row selected with ``selection(table:modelVersion:)``.
    public init(row: Row) throws {
        self.init(row: row, offset: 0, hasNote: row.count > 10)
    }

    /// Reads the item's columns starting at `offset`, by position: GRDB's lookup by name
    /// lowercases the name on every call, a tenth of the time of listing 10k items.
    init(row: Row, offset: Int, hasNote: Bool) {
        self.init(
            row: row, offset: offset, hasNote: hasNote, unit: row[offset + Int(LinkColumn.unit)],
            locationAtHome: row[offset + Int(LinkColumn.locationAtHome)],
            locationAtShop: row[offset + Int(LinkColumn.locationAtShop)])
    }

    /// Reads the item's columns but its links to a unit and locations, which the caller read.
    init(
        row: Row, offset: Int, hasNote: Bool, unit: UnitID?, locationAtHome: HomeLocationID?,
        locationAtShop: ShopLocationID?
    ) {
        id = row[offset]
        name = row[offset + 1]
        quantity = row[offset + 2]
        listed = row[offset + 3]
        collected = row[offset + 4]
        modified = Date(timeIntervalSince1970: row[offset + 5])
        self.unit = unit
        self.locationAtHome = locationAtHome
        self.locationAtShop = locationAtShop
        photo = row[offset + 9]
        note = hasNote ? row[offset + 10] : nil
    }

    /// The positions of the links in ``selection(table:modelVersion:)``.
    enum LinkColumn {
        static let unit: CInt = 6
        static let locationAtHome: CInt = 7
        static let locationAtShop: CInt = 8
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
