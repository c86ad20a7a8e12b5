import Foundation
import GRDB
import Ubiquity

/// Shops and their aisles (model version 3). The default shop's aisles are the book's
/// (`LocationAtShop`, an item's `locationAtShop`); another shop's are `ShopAisle`s, and an
/// item's aisle there an `ItemAisle`. Without a shop named, every operation is the default
/// shop's, as before shops.
extension GroceryStore {
    /// The aisles of one shop: where they are kept, and how their items point at them.
    private struct AisleTable {
        let shop: GlobalID
        var isDefault: Bool { shop == GrocerySchema.defaultShopID }
        var entity: String { isDefault ? GrocerySchema.Entity.locationAtShop : GrocerySchema.Entity.shopAisle }
        var table: String { isDefault ? "locationAtShop" : "shopAisle" }
        var scope: ReferenceResolver.Scope? { isDefault ? nil : .init(column: "shop", id: shop) }
        var filter: String { isDefault ? "" : " WHERE e.shop = ?" }
        var arguments: StatementArguments { isDefault ? [] : [shop.description] }
        var itemCount: String {
            isDefault
                ? "(SELECT count(*) FROM item WHERE item.locationAtShop = e.id)"
                : "(SELECT count(*) FROM itemAisle WHERE itemAisle.aisle = e.id)"
        }
    }

    /// Shops came with model version 3.
    private func requireShops() throws {
        guard modelVersion >= 3 else {
            throw GroceryError.notInModelVersion(property: "shops", since: 3, store: modelVersion)
        }
    }

    // MARK: - Shops

    /// Every shop: the default first, then the others in natural order of names.
    public func shops() throws -> [ShopEntry] {
        try requireShops()
        return try objects.read { db in try Self.shops(db) }
    }

    static func shops(_ db: Database) throws -> [ShopEntry] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT s.id, s.name, s.modified,
                       CASE WHEN s.id = ? THEN (SELECT count(*) FROM locationAtShop)
                            ELSE (SELECT count(*) FROM shopAisle WHERE shopAisle.shop = s.id) END AS aisles
                FROM shop s ORDER BY s.name COLLATE NOCASE, s.id
                """, arguments: [GrocerySchema.defaultShopID.description])
        var shops = rows.compactMap { row -> ShopEntry? in
            guard let id = GlobalID(row["id"] as String) else { return nil }
            return ShopEntry(
                id: ShopID(id), name: row["name"] ?? "", modified: Date(timeIntervalSince1970: row["modified"]),
                aisleCount: row["aisles"])
        }
        // The default shop is there even when a peer's file deleted its row: its aisles are.
        if !shops.contains(where: \.isDefault) {
            shops.append(
                ShopEntry(
                    id: .defaultShop, name: GrocerySchema.defaultShopName,
                    modified: Date(timeIntervalSince1970: 0),
                    aisleCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM locationAtShop") ?? 0))
        }
        let others = NameOrder.naturallySorted(shops.filter { !$0.isDefault }, name: \.name)
        return shops.filter(\.isDefault) + others
    }

    /// The shop a user means: `nil` for the default shop, else its name (ignoring case) or a
    /// prefix of its ID.
    public func shop(_ reference: String?) throws -> ShopEntry {
        guard let reference else {
            guard modelVersion >= 3 else {
                return ShopEntry(
                    id: .defaultShop, name: GrocerySchema.defaultShopName,
                    modified: Date(timeIntervalSince1970: 0), aisleCount: try entries(.shop).count)
            }
            return try shops().first(where: \.isDefault)!
        }
        try requireShops()
        return try objects.read { db in
            let id = try ReferenceResolver.resolve(reference, kind: "shop", table: "shop", nameColumn: "name", db: db)
            return try Self.shops(db).first { $0.id.globalID == id }!
        }
    }

    @discardableResult
    public func addShop(name raw: String) throws -> ShopEntry {
        try requireShops()
        let name = try Validation.name(raw, field: "shop name")
        let id = try objects.save(author: "shops new") { context in
            try ReferenceResolver.ensureNameIsFree(
                name, kind: "shop", table: "shop", nameColumn: "name", db: context.db)
            return try context.insert(GrocerySchema.Entity.shop, values: ["name": .string(name)])
        }
        return try shops().first { $0.id.globalID == id }!
    }

    @discardableResult
    public func renameShop(_ reference: String, to raw: String) throws -> ShopEntry {
        let name = try Validation.name(raw, field: "shop name")
        let shop = try self.shop(reference)
        try objects.save(author: "shops rename") { context in
            let others = try ReferenceResolver.matches(name, table: "shop", nameColumn: "name", db: context.db)
            let id = shop.id.globalID
            if let other = others.first(where: { $0.id != id }) {
                throw GroceryError.alreadyExists(kind: "shop", name: other.name)
            }
            if try context.values(of: GrocerySchema.Entity.shop, id: id) == nil {
                // The default shop's row, deleted by a peer's file: made again under its ID.
                _ = try context.insert(GrocerySchema.Entity.shop, id: id, values: ["name": .string(name)])
            } else {
                try context.update(GrocerySchema.Entity.shop, id: id, values: ["name": .string(name)])
            }
        }
        return try shops().first { $0.id == shop.id }!
    }

    /// Deletes a shop with its aisles; items keep their other shops' aisles. The default shop
    /// stays (its aisles are the book's): rename it instead.
    @discardableResult
    public func removeShop(_ reference: String) throws -> ShopEntry {
        let shop = try self.shop(reference)
        guard !shop.isDefault else { throw GroceryError.defaultShop(name: shop.name) }
        try objects.save(author: "shops rm") { context in
            try context.delete(GrocerySchema.Entity.shop, id: shop.id.globalID)
        }
        return shop
    }

    /// The shop the Shop screen shows on this device (a local fact of the list's store, never
    /// synced): the default shop until another is chosen, and again when that one is gone.
    public func shownShop() throws -> ShopID {
        guard modelVersion >= 3, let text = try objects.metadata(Self.shownShopKey), let id = ShopID(text),
            try shops().contains(where: { $0.id == id })
        else { return .defaultShop }
        return id
    }

    public func setShownShop(_ shop: ShopID) throws {
        try objects.setMetadata(Self.shownShopKey, shop.description)
    }

    static let shownShopKey = "shownShop"

    // MARK: - Aisles

    /// A shop's aisles in its walking order (``WalkingOrder``).
    public func aisles(in shopID: ShopID = .defaultShop) throws -> [AisleEntry] {
        let shop = shopID.globalID
        guard modelVersion >= 3 else {
            return try entries(.shop).map {
                AisleEntry(
                    id: AisleID($0.id.globalID), shop: shopID, name: $0.name, position: nil, modified: $0.modified,
                    itemCount: $0.itemCount)
            }
        }
        return try objects.read { db in try Self.aisles(in: shop, db) }
    }

    static func aisles(in shop: GlobalID, _ db: Database) throws -> [AisleEntry] {
        let table = AisleTable(shop: shop)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.aisle, e.position, e.modified, \(table.itemCount) AS items
                FROM \(table.table) e\(table.filter)
                """, arguments: table.arguments)
        let aisles = rows.compactMap { row -> AisleEntry? in
            guard let id = GlobalID(row["id"] as String) else { return nil }
            let position = (row["position"] as Double?).flatMap { $0.isFinite ? $0 : nil }
            return AisleEntry(
                id: AisleID(id), shop: ShopID(shop), name: row["aisle"] ?? "", position: position,
                modified: Date(timeIntervalSince1970: row["modified"]), itemCount: row["items"])
        }
        return WalkingOrder.ordered(aisles, id: \.id.description, name: \.name, position: \.position).map(\.aisle)
    }

    /// A shop's aisles in walking order, as entries of the Aisles screen (``CatalogEntry``).
    public func aisleEntries(in shopID: ShopID) throws -> [CatalogEntry] {
        try aisles(in: shopID).map {
            CatalogEntry(
                kind: .shop, id: CatalogEntryID(.shop, $0.id.globalID), name: $0.name, modified: $0.modified,
                itemCount: $0.itemCount)
        }
    }

    /// Adds an aisle to a shop; without one, to the default shop.
    @discardableResult
    public func addAisle(_ raw: String, in shopID: ShopID = .defaultShop) throws -> AisleEntry {
        let shop = shopID.globalID
        let table = AisleTable(shop: shop)
        guard !table.isDefault else {
            let entry = try addEntry(.shop, name: raw)
            return try aisles(in: shopID).first { $0.id.globalID == entry.id.globalID }!
        }
        let name = try Validation.name(raw, field: "aisle name")
        let id = try objects.save(author: "aisle add") { context in
            try Self.findOrCreateAisle(name, in: table, context, creating: .refuse)
        }
        return try aisles(in: shopID).first { $0.id.globalID == id }!
    }

    /// Renames an aisle of a shop; its items follow.
    @discardableResult
    public func renameAisle(_ reference: String, to raw: String, in shopID: ShopID = .defaultShop)
        throws -> AisleEntry
    {
        let shop = shopID.globalID
        let table = AisleTable(shop: shop)
        if table.isDefault {
            let entry = try renameEntry(.shop, reference, to: raw)
            return try aisles(in: shopID).first { $0.id.globalID == entry.id.globalID }!
        }
        let name = try Validation.name(raw, field: "aisle name")
        let id = try objects.save(author: "aisle rename") { context in
            let id = try Self.resolveAisle(reference, in: table, context.db)
            let others = try ReferenceResolver.matches(
                name, table: table.table, nameColumn: "aisle", within: table.scope, db: context.db)
            if let other = others.first(where: { $0.id != id }) {
                throw GroceryError.alreadyExists(kind: "aisle", name: other.name)
            }
            try context.update(table.entity, id: id, values: ["aisle": .string(name)])
            return id
        }
        return try aisles(in: shopID).first { $0.id.globalID == id }!
    }

    /// Deletes an aisle of a shop; its items are found in no aisle there any more.
    @discardableResult
    public func removeAisle(_ reference: String, in shopID: ShopID = .defaultShop) throws -> AisleEntry {
        let shop = shopID.globalID
        let table = AisleTable(shop: shop)
        let aisles = try self.aisles(in: shopID)
        let id = try objects.read { db in try Self.resolveAisle(reference, in: table, db) }
        let removed = aisles.first { $0.id.globalID == id }!
        try objects.save(author: "aisle rm") { context in try context.delete(table.entity, id: id) }
        return removed
    }

    /// Moves an aisle in its shop's walking order: one position written, the moved aisle's
    /// (``WalkingOrder``); the whole shop numbered again only when no number fits between.
    ///
    /// - Returns: the shop's aisles in their new order.
    @discardableResult
    public func moveAisle(
        _ reference: String, in shopID: ShopID = .defaultShop, to move: WalkingOrder.Move
    ) throws -> [AisleEntry] {
        let shop = shopID.globalID
        try requireShops()
        let table = AisleTable(shop: shop)
        try objects.save(author: "aisle move") { context in
            let id = try Self.resolveAisle(reference, in: table, context.db)
            let ordered = try Self.aisles(in: shop, context.db)
            let placed = WalkingOrder.ordered(ordered, id: \.id.description, name: \.name, position: \.position)
            let others = placed.filter { $0.aisle.id.globalID != id }
            let index: Int
            switch move {
            case .first: index = 0
            case .last: index = others.count
            case .before(let other), .after(let other):
                let otherID = try Self.resolveAisle(other, in: table, context.db)
                guard otherID != id else {
                    throw GroceryError.invalidMove(reason: "an aisle cannot move next to itself")
                }
                let found = others.firstIndex { $0.aisle.id.globalID == otherID }!
                if case .after = move { index = found + 1 } else { index = found }
            }
            if let position = WalkingOrder.position(at: index, among: others.map(\.place)) {
                try context.update(table.entity, id: id, values: ["position": .double(position)])
            } else {
                var order = others.map(\.aisle.id.globalID)
                order.insert(id, at: index)
                for (place, aisle) in order.enumerated() {
                    try context.update(table.entity, id: aisle, values: ["position": .double(Double(place + 1))])
                }
            }
        }
        return try aisles(in: shopID)
    }

    private static func resolveAisle(_ reference: String, in table: AisleTable, _ db: Database) throws -> GlobalID {
        try ReferenceResolver.resolve(
            reference, kind: table.isDefault ? "shop aisle" : "aisle", table: table.table, nameColumn: "aisle",
            within: table.scope, db: db)
    }

    private enum Creating { case refuse, allow }

    /// The aisle of this name in the shop: found (ignoring case), or made.
    private static func findOrCreateAisle(
        _ name: String, in table: AisleTable, _ context: SaveContext, creating: Creating
    ) throws -> GlobalID {
        let found = try ReferenceResolver.matches(
            name, table: table.table, nameColumn: "aisle", within: table.scope, db: context.db)
        if let existing = found.first {
            guard creating == .allow else { throw GroceryError.alreadyExists(kind: "aisle", name: existing.name) }
            return existing.id
        }
        var values: [String: PropertyValue] = ["aisle": .string(name)]
        if !table.isDefault { values["shop"] = .reference(table.shop) }
        return try context.insert(table.entity, values: values)
    }

    // MARK: - Items in shops

    /// Sets where an item is found in a shop (found or created there); an empty name: nowhere
    /// there. The default shop's is the item's shop aisle (``ItemChanges/shopLocation``).
    @discardableResult
    public func setAisle(of reference: String, in shopID: ShopID, to raw: String) throws -> ItemRow {
        let shop = shopID.globalID
        let table = AisleTable(shop: shop)
        guard !table.isDefault else {
            var changes = ItemChanges()
            changes.shopLocation = raw
            return try editItem(reference, changes)
        }
        try requireShops()
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        let name = try trimmed.isEmpty ? nil : Validation.name(raw, field: "aisle name")
        return try objects.save(author: "item edit") { context in
            let item = try Self.resolveItem(reference, context.db)
            let link = try String.fetchOne(
                context.db, sql: "SELECT id FROM itemAisle WHERE item = ? AND shop = ? ORDER BY id",
                arguments: [item.id.description, shop.description]
            ).flatMap(GlobalID.init)
            if let name {
                let aisle = try Self.findOrCreateAisle(name, in: table, context, creating: .allow)
                if let link {
                    try context.update(GrocerySchema.Entity.itemAisle, id: link, values: ["aisle": .reference(aisle)])
                } else {
                    _ = try context.insert(
                        GrocerySchema.Entity.itemAisle,
                        values: [
                            "item": .reference(item.id.globalID), "shop": .reference(shop), "aisle": .reference(aisle),
                        ])
                }
            } else if let link {
                try context.delete(GrocerySchema.Entity.itemAisle, id: link)
            }
            return try Self.itemRow(id: item.id, context.db)!
        }
    }

    /// The name of an item's aisle in a shop; `nil` when it has none there.
    public func aisleName(of item: ItemID, in shopID: ShopID) throws -> String? {
        if shopID == .defaultShop { return try self.item(id: item)?.shopLocationName }
        guard modelVersion >= 3 else { return nil }
        return try objects.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT a.aisle FROM itemAisle l JOIN shopAisle a ON a.id = l.aisle AND a.shop = l.shop
                    WHERE l.item = ? AND l.shop = ? ORDER BY l.id LIMIT 1
                    """, arguments: [item.description, shopID.description])
        }
    }

    /// Every item's aisle in each shop other than the default, by item ID: the default shop's
    /// is the item's shop aisle. Empty before model version 3.
    public func otherShopsAisles() throws -> [String: [ItemAisle]] {
        guard modelVersion >= 3 else { return [:] }
        return try objects.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT l.item, s.name AS shop, a.aisle FROM itemAisle l
                    JOIN shop s ON s.id = l.shop JOIN shopAisle a ON a.id = l.aisle AND a.shop = l.shop
                    """)
            var found: [String: [ItemAisle]] = [:]
            for row in rows {
                guard let item = row["item"] as String? else { continue }
                found[item, default: []].append(ItemAisle(shop: row["shop"] ?? "", aisle: row["aisle"] ?? ""))
            }
            return found.mapValues { NameOrder.naturallySorted($0, name: \.shop) }
        }
    }

    /// Each item's place in a shop's walking order, by item ID, with its aisle's name: what a
    /// shop's list is sorted by. Items found in no aisle there are not in it.
    public func walkingPlaces(in shopID: ShopID) throws -> [String: (place: Int, aisle: String)] {
        let shop = shopID.globalID
        let aisles = try self.aisles(in: shopID)
        var places: [String: (place: Int, aisle: String)] = [:]
        let rank = Dictionary(aisles.enumerated().map { ($0.element.id.globalID, ($0.offset, $0.element.name)) }) {
            a, _ in a
        }
        try objects.read { db in
            let sql =
                shop == GrocerySchema.defaultShopID
                ? "SELECT id AS item, locationAtShop AS aisle FROM item WHERE locationAtShop IS NOT NULL"
                : "SELECT item, aisle FROM itemAisle WHERE shop = ?"
            let arguments: StatementArguments = shop == GrocerySchema.defaultShopID ? [] : [shop.description]
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                guard let item = row["item"] as String?, let aisle = (row["aisle"] as String?).flatMap(GlobalID.init),
                    let (place, name) = rank[aisle]
                else { continue }
                places[item] = (place, name)
            }
        }
        return places
    }
}
