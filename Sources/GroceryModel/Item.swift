import Foundation
import GRDB
import Ubiquity

/// A grocery item, as stored.
public struct Item: Hashable, Sendable, Identifiable {
    public var id: GlobalID
    public var name: String
    public var quantity: Double
    /// On the shopping list (Prepare's toggle).
    public var listed: Bool
    /// Ticked off in the shop (Shop's toggle).
    public var collected: Bool
    public var modified: Date
    public var unit: GlobalID?
    public var locationAtHome: GlobalID?
    public var locationAtShop: GlobalID?
    public var photo: GlobalID?
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

    public init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        quantity = row["quantity"]
        listed = row["listed"]
        collected = row["collected"]
        modified = Date(timeIntervalSince1970: row["modified"])
        unit = row["unit"]
        locationAtHome = row["locationAtHome"]
        locationAtShop = row["locationAtShop"]
        photo = row["photo"]
        note = row.hasColumn("note") ? row["note"] : nil
    }
}
