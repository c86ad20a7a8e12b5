import Foundation
import GRDB
import Ubiquity

/// The shops part of an import (archive version 2): shops, their aisles with the positions of
/// moved ones, and items' aisles in them.
///
/// A shop is matched by its exact name, an aisle by its exact name within its shop, as every
/// object of an import. The file's default shop is the store's, whatever its name, and gives
/// it the file's name. The default shop's aisles are the book's (`LocationAtShop`), and an item's
/// aisle there is its `locationAtShop`. Before model version 3 the store has the default shop
/// only (its aisles, no positions): a file naming another shop is refused.
extension ArchiveImporter {
    private static let shopEntity = GrocerySchema.Entity.shop
    private static let itemAisleEntity = GrocerySchema.Entity.itemAisle
    private static var defaultShop: GlobalID { GrocerySchema.defaultShopID }

    // MARK: - Shops

    /// Applies one shop of the file and its aisles.
    ///
    /// - Parameter place: how messages name the shop ("shop 2 ("Aldi")").
    mutating func apply(_ record: ShopRecord, place: String) throws {
        var id = Self.defaultShop
        try Self.within(place) {
            let name = try Validation.importedName(record.name, field: "shop name")
            if record.isDefault {
                try nameDefaultShop(name, modified: record.modified)
            } else {
                id = try shop(named: name, modified: record.modified, counted: true)
            }
        }
        for (index, aisle) in (record.aisles ?? []).enumerated() {
            try Self.within("\(place), aisle \(index + 1)") {
                let name = try Validation.importedName(aisle.name, field: "aisle name")
                try applyAisle(aisle, name: name, in: id)
            }
        }
    }

    /// Gives the store's default shop the file's name for it.
    private mutating func nameDefaultShop(_ name: String, modified: Date?) throws {
        var shops = try loadedShops()
        defer { shopsByName = shops }
        guard hasShops else {
            shops[name] = Self.defaultShop
            return
        }
        let current = try context.values(of: Self.shopEntity, id: Self.defaultShop)
        if case .string(name)? = current?["name"] {
            summary.shops.unchanged += 1
            return
        }
        if let other = shops[name], other != Self.defaultShop {
            throw RecordFault("the default shop's name \(name.debugDescription) is another shop's in this list")
        }
        var values: [String: PropertyValue] = ["name": .string(name)]
        if let modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        if current == nil {
            // The default shop's row, deleted by a peer's file: made again under its ID.
            _ = try context.insert(Self.shopEntity, id: Self.defaultShop, values: values)
        } else {
            try context.update(Self.shopEntity, id: Self.defaultShop, values: values)
        }
        shops = shops.filter { $0.value != Self.defaultShop }
        shops[name] = Self.defaultShop
        summary.shops.updated += 1
    }

    /// The shop named exactly `name`, made when missing (model version 3).
    private mutating func shop(named name: String, modified: Date?, counted: Bool) throws -> GlobalID {
        var shops = try loadedShops()
        if let id = shops[name] {
            if counted && hasShops { summary.shops.unchanged += 1 }
            return id
        }
        guard hasShops else {
            throw RecordFault(
                "this device's store is at model version \(context.schema.version), which has no shop but the default one, \(GrocerySchema.defaultShopName.debugDescription) (shops came with version 3)"
            )
        }
        var values: [String: PropertyValue] = ["name": .string(name)]
        if let modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        let id = try context.insert(Self.shopEntity, values: values)
        shops[name] = id
        shopsByName = shops
        shopAisles[id] = [:]
        summary.shops.inserted += 1
        return id
    }

    /// Shops by exact name; the default shop under its name even when a peer's file deleted
    /// its row; before model version 3, the default shop alone.
    private mutating func loadedShops() throws -> [String: GlobalID] {
        if let shopsByName { return shopsByName }
        var shops: [String: GlobalID] = [:]
        if hasShops {
            shops = try Self.index(table: "shop", nameColumn: "name", db: context.db)
        }
        if !shops.values.contains(Self.defaultShop), shops[GrocerySchema.defaultShopName] == nil {
            shops[GrocerySchema.defaultShopName] = Self.defaultShop
        }
        shopsByName = shops
        return shops
    }

    // MARK: - Aisles

    /// Applies one aisle of a shop: found by name or made, with the file's position when it
    /// has one (model version 3; an older store has no walking order).
    mutating func applyAisle(_ record: CatalogRecord, name: String, in shop: GlobalID) throws {
        let position = try record.position.map(Self.position)
        let isDefault = shop == Self.defaultShop
        if let id = try aisle(named: name, in: shop) {
            let entity = isDefault ? GrocerySchema.Entity.locationAtShop : GrocerySchema.Entity.shopAisle
            var moved = false
            if let position, hasShops {
                moved = try context.update(entity, id: id, values: ["position": .double(position)])
            }
            let counts: WritableKeyPath<ImportSummary, ImportSummary.Counts> =
                isDefault ? \.shopLocations : \.shopAisles
            if moved { summary[keyPath: counts].updated += 1 } else { summary[keyPath: counts].unchanged += 1 }
        } else {
            _ = try insertAisle(name, in: shop, modified: record.modified, position: position)
        }
    }

    /// The aisle named exactly `name` in a shop, if there is one.
    private mutating func aisle(named name: String, in shop: GlobalID) throws -> GlobalID? {
        if shop == Self.defaultShop { return catalog[.shop]?[name] }
        if let aisles = shopAisles[shop] { return aisles[name] }
        let aisles = try Self.index(
            table: "shopAisle", nameColumn: "aisle", db: context.db, filter: " WHERE shop = ?",
            arguments: [shop.description])
        shopAisles[shop] = aisles
        return aisles[name]
    }

    private mutating func insertAisle(_ name: String, in shop: GlobalID, modified: Date?, position: Double?) throws
        -> GlobalID
    {
        var values: [String: PropertyValue] = ["aisle": .string(name)]
        if let modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        if let position, hasShops { values["position"] = .double(position) }
        if shop == Self.defaultShop {
            let id = try context.insert(GrocerySchema.Entity.locationAtShop, values: values)
            catalog[.shop, default: [:]][name] = id
            summary.shopLocations.inserted += 1
            return id
        }
        values["shop"] = .reference(shop)
        let id = try context.insert(GrocerySchema.Entity.shopAisle, values: values)
        shopAisles[shop, default: [:]][name] = id
        summary.shopAisles.inserted += 1
        return id
    }

    /// A position as the schema takes it: finite, within ``GrocerySchema/positionRule``.
    private static func position(_ value: Double) throws -> Double {
        if let reason = GrocerySchema.positionRule.violation(of: .double(value)) {
            throw RecordFault("invalid position: \(reason)")
        }
        return value
    }

    // MARK: - Items' aisles

    /// An item's aisles in the file: the default shop's goes into `values` (its
    /// `locationAtShop`); the others' are returned, for ``place(item:in:)`` once the item is
    /// saved. Shops and aisles are found by name or made.
    mutating func aisles(of record: ItemRecord, values: inout [String: PropertyValue]) throws -> [(
        shop: GlobalID, aisle: GlobalID
    )] {
        var links: [(shop: GlobalID, aisle: GlobalID)] = []
        var seen: Set<GlobalID> = []
        for (index, entry) in (record.aisles ?? []).enumerated() {
            let shopName = try Validation.importedName(entry.shop, field: "shop name")
            let aisleName = try Validation.importedName(entry.aisle, field: "aisle name")
            let shop = try shop(named: shopName, modified: nil, counted: false)
            guard seen.insert(shop).inserted else {
                throw RecordFault("its aisle \(index + 1) is a second one in \(shopName.debugDescription)")
            }
            let aisle =
                try aisle(named: aisleName, in: shop)
                ?? insertAisle(
                    aisleName, in: shop, modified: nil, position: nil)
            guard shop != Self.defaultShop else {
                if let set = values["locationAtShop"], set != .reference(aisle) {
                    throw RecordFault(
                        "its shopLocation and its aisle in the default shop (\(aisleName.debugDescription)) differ")
                }
                values["locationAtShop"] = .reference(aisle)
                continue
            }
            links.append((shop, aisle))
        }
        return links
    }

    /// Puts a saved item in its aisles of other shops. Returns whether anything changed.
    @discardableResult
    mutating func place(item: GlobalID, in links: [(shop: GlobalID, aisle: GlobalID)]) throws -> Bool {
        guard !links.isEmpty else { return false }
        var all = try loadedItemAisles()
        defer { itemAisles = all }
        var changed = false
        for (shop, aisle) in links {
            if let found = all[item]?[shop] {
                guard found.aisle != aisle else { continue }
                try context.update(Self.itemAisleEntity, id: found.link, values: ["aisle": .reference(aisle)])
                all[item]?[shop] = (found.link, aisle)
            } else {
                let link = try context.insert(
                    Self.itemAisleEntity,
                    values: ["item": .reference(item), "shop": .reference(shop), "aisle": .reference(aisle)])
                all[item, default: [:]][shop] = (link, aisle)
            }
            changed = true
        }
        return changed
    }

    /// Every item's aisle links, the oldest (smallest ID) of several for one shop.
    private mutating func loadedItemAisles() throws -> [GlobalID: [GlobalID: (link: GlobalID, aisle: GlobalID)]] {
        if let itemAisles { return itemAisles }
        var all: [GlobalID: [GlobalID: (link: GlobalID, aisle: GlobalID)]] = [:]
        let rows = try Row.fetchAll(
            context.db, sql: "SELECT id, item, shop, aisle FROM itemAisle ORDER BY id DESC")
        for row in rows {
            guard let link = (row["id"] as String?).flatMap(GlobalID.init),
                let item = (row["item"] as String?).flatMap(GlobalID.init),
                let shop = (row["shop"] as String?).flatMap(GlobalID.init),
                let aisle = (row["aisle"] as String?).flatMap(GlobalID.init)
            else { continue }
            all[item, default: [:]][shop] = (link, aisle)
        }
        itemAisles = all
        return all
    }
}
