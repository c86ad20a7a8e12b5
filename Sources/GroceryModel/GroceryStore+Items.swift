import Foundation
import GRDB
import Ubiquity

/// What a new item holds. Names of units and locations are found or created.
public struct ItemDraft: Sendable {
    public var name: String
    public var quantity: Double = 1
    public var unit: String?
    public var homeLocation: String?
    public var shopLocation: String?
    public var listed = true
    public var note: String?

    public init(name: String) { self.name = name }
}

/// What an edit changes: `nil` leaves a property alone; an empty string clears a link.
public struct ItemChanges: Sendable {
    public var name: String?
    public var quantity: Double?
    public var unit: String?
    public var homeLocation: String?
    public var shopLocation: String?
    public var note: String?

    public init() {}

    /// Whether the edit changes anything at all.
    public var changesAnything: Bool {
        name != nil || quantity != nil || unit != nil || homeLocation != nil || shopLocation != nil || note != nil
    }
}

extension GroceryStore {
    // MARK: - Reading

    /// Every item, in reading order of names (``NameOrder``), or only those on the shopping list.
    public func items(listedOnly: Bool = false) throws -> [ItemRow] {
        try objects.read { db in
            let filter = listedOnly ? " WHERE item.listed" : ""
            let names = try LinkedNames(db)
            let hasNote = try ItemRow.hasNote(db)
            let selection = Item.selection(modelVersion: hasNote ? 2 : 1)
            // A cursor decodes each row in place; fetchAll would copy every row first.
            let statement = try db.makeStatement(
                sql: "SELECT \(selection) FROM item" + filter + " ORDER BY item.name COLLATE NOCASE, item.id")
            let rows = try Row.fetchCursor(statement)
            var items: [ItemRow] = []
            // Room for every row at once: grown by doubling, 10k rows moved ~3 MB more memory.
            items.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM item" + filter) ?? 0)
            while let row = try rows.next() {
                items.append(names.row(row, statement: statement.sqliteStatement, hasNote: hasNote))
            }
            return NameOrder.sorted(items, name: \.name)
        }
    }

    /// How many items are on the shopping list, and how many of those are collected: what the
    /// Clear actions check first.
    public func shoppingListCounts() throws -> (listed: Int, collected: Int) {
        try objects.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(collected), 0) FROM item WHERE listed")!
            return (row[0], row[1])
        }
    }

    /// The items on the shopping list (or only the collected ones): what a Clear changes.
    public func shoppingListIDs(collectedOnly: Bool = false) throws -> [ItemID] {
        try objects.read { db in
            try ItemID.fetchAll(db, sql: "SELECT id FROM item WHERE listed" + (collectedOnly ? " AND collected" : ""))
        }
    }

    /// One item, by global ID.
    public func item(id: ItemID) throws -> ItemRow? {
        try objects.read { db in try Self.itemRow(id: id, db) }
    }

    static func itemRow(id: ItemID, _ db: Database) throws -> ItemRow? {
        // Through the connection's statement cache: read back after every save and for every
        // item an import brings, compiling the joins each time was most of the read.
        try Row.fetchOne(db.cachedStatement(sql: try ItemRow.selectSQL(db) + " WHERE item.id = ?"), arguments: [id])
            .map(ItemRow.init(row:))
    }

    /// Finds the one item a user means by `reference`: its name (ignoring case and surrounding
    /// spaces) or a prefix of its ID.
    ///
    /// - Throws: ``GroceryError/notFound(kind:reference:)`` or
    ///   ``GroceryError/ambiguous(kind:reference:candidates:)`` listing the candidates.
    public func resolveItem(_ reference: String) throws -> ItemRow {
        try objects.read { db in try Self.resolveItem(reference, db) }
    }

    static func resolveItem(_ reference: String, _ db: Database) throws -> ItemRow {
        try itemRow(id: resolveItemName(reference, db).id, db)!
    }

    /// The item `reference` names (a name, ignoring case, or a prefix of its ID): its ID and its
    /// name as stored, without its row.
    static func resolveItemName(_ reference: String, _ db: Database) throws -> (id: ItemID, name: String) {
        let found = try ReferenceResolver.resolveNamed(
            reference, kind: "item", table: "item", nameColumn: "name", db: db)
        return (ItemID(found.id), found.name)
    }

    // MARK: - Changing

    /// Adds an item. Its unit and locations are found by name, or created.
    ///
    /// - Throws: ``GroceryError`` for an invalid name or quantity, or a name in use.
    @discardableResult
    public func addItem(_ draft: ItemDraft) throws -> ItemRow {
        let name = try Validation.name(draft.name, field: "item name")
        let quantity = try Validation.quantity(draft.quantity)
        let note = try draft.note.map { try Validation.name($0, field: "note") }
        if note != nil { try requireNotes() }
        return try objects.save(author: "item add") { context in
            try ReferenceResolver.ensureNameIsFree(
                name, kind: "item", table: "item", nameColumn: "name", db: context.db)
            var values: [String: PropertyValue] = [
                "name": .string(name), "quantity": .double(quantity), "listed": .bool(draft.listed),
            ]
            if let note, context.schema.version >= 2 { values["note"] = .string(note) }
            for (kind, entry) in [
                (CatalogKind.unit, draft.unit), (.home, draft.homeLocation), (.shop, draft.shopLocation),
            ] {
                if let entry, !entry.trimmingCharacters(in: .whitespaces).isEmpty {
                    values[kind.itemRelationship] = .reference(
                        try CatalogLinker.findOrCreate(kind, named: entry, in: context))
                }
            }
            let id = try context.insert(ItemEntity.self, values: values)
            return try Self.itemRow(id: id, context.db)!
        }
    }

    /// Notes came with model version 2: a store at version 1 has nowhere to keep one, and must
    /// say so rather than drop it.
    private func requireNotes() throws {
        guard modelVersion >= 2 else {
            throw GroceryError.notInModelVersion(property: "note", since: 2, store: modelVersion)
        }
    }

    /// Changes an item's properties.
    @discardableResult
    public func editItem(_ reference: String, _ changes: ItemChanges) throws -> ItemRow {
        let name = try changes.name.map { try Validation.name($0, field: "item name") }
        let quantity = try changes.quantity.map { try Validation.quantity($0) }
        let note = try changes.note.map { $0.isEmpty ? $0 : try Validation.name($0, field: "note") }
        if note != nil { try requireNotes() }
        return try objects.save(author: "item edit") { context in
            let row = try Self.resolveItem(reference, context.db)
            var values: [String: PropertyValue] = [:]
            if let name, Validation.normalized(name) != Validation.normalized(row.name) {
                try ReferenceResolver.ensureNameIsFree(
                    name, kind: "item", table: "item", nameColumn: "name", db: context.db)
            }
            if let name { values["name"] = .string(name) }
            if let quantity { values["quantity"] = .double(quantity) }
            if let note, context.schema.version >= 2 { values["note"] = note.isEmpty ? .null : .string(note) }
            for (kind, entry) in [
                (CatalogKind.unit, changes.unit), (.home, changes.homeLocation), (.shop, changes.shopLocation),
            ] {
                guard let entry else { continue }
                values[kind.itemRelationship] =
                    entry.trimmingCharacters(in: .whitespaces).isEmpty
                    ? .null : .reference(try CatalogLinker.findOrCreate(kind, named: entry, in: context))
            }
            try context.update(row.id, values: values)
            return try Self.itemRow(id: row.id, context.db)!
        }
    }

    /// Sets an item's modification date to now (the book marks an item modified when it is
    /// opened, so that deduplication keeps the one the user looked at last).
    public func markModified(_ id: ItemID) throws {
        try objects.save(author: "item open") { context in
            guard try context.values(of: id) != nil else {
                throw GroceryError.notFound(kind: "item", reference: id.description)
            }
            try context.update(id, values: ["modified": .date(context.now)])
        }
    }

    /// Deletes an item (and its photo).
    @discardableResult
    public func removeItem(_ reference: String) throws -> ItemRow {
        try objects.save(author: "item rm") { context in
            let row = try Self.resolveItem(reference, context.db)
            try context.delete(row.id)
            return row
        }
    }

    /// Puts an item on the shopping list (clearing `collected`, as the book did) or takes it off.
    ///
    /// - Returns: the item's ID and name, which is all a command prints: making an ``ItemRow``
    ///   compiles its joined query, a third of the work of `item list` of its own (the query's
    ///   first compile in a process; docs/decisions/0178).
    @discardableResult
    public func setListed(_ reference: String, _ listed: Bool) throws -> (id: ItemID, name: String) {
        try objects.save(author: listed ? "item list" : "item unlist") { context in
            let item = try Self.resolveItemName(reference, context.db)
            try context.update(item.id, values: Self.listing(listed))
            return item
        }
    }

    /// The same, for an item known by its ID (a screen's row): no name to look up; its row after.
    @discardableResult
    public func setListed(_ id: ItemID, _ listed: Bool) throws -> ItemRow {
        try objects.save(author: listed ? "item list" : "item unlist") { context in
            try context.update(Self.existingItemRow(id, context.db).id, values: Self.listing(listed))
            return try Self.itemRow(id: id, context.db)!
        }
    }

    /// Ticks an item off in the shop, or unticks it.
    ///
    /// - Returns: the item's ID and name, as `setListed` by reference does.
    @discardableResult
    public func setCollected(_ reference: String, _ collected: Bool) throws -> (id: ItemID, name: String) {
        try objects.save(author: collected ? "item collect" : "item uncollect") { context in
            let item = try Self.resolveItemName(reference, context.db)
            try context.update(item.id, values: ["collected": .bool(collected)])
            return item
        }
    }

    /// The same, for an item known by its ID; its row after.
    @discardableResult
    public func setCollected(_ id: ItemID, _ collected: Bool) throws -> ItemRow {
        try objects.save(author: collected ? "item collect" : "item uncollect") { context in
            try context.update(Self.existingItemRow(id, context.db).id, values: ["collected": .bool(collected)])
            return try Self.itemRow(id: id, context.db)!
        }
    }

    /// What listing (`true`) or unlisting an item changes.
    private static func listing(_ listed: Bool) -> [String: PropertyValue] {
        listed ? ["listed": .bool(true), "collected": .bool(false)] : ["listed": .bool(false)]
    }

    /// The row of the item `id`; ``GroceryError/notFound(kind:reference:)`` when there is none.
    private static func existingItemRow(_ id: ItemID, _ db: Database) throws -> ItemRow {
        guard let row = try itemRow(id: id, db) else {
            throw GroceryError.notFound(kind: "item", reference: id.description)
        }
        return row
    }

    /// Prepare's "Clear": takes every item off the shopping list.
    ///
    /// - Returns: how many items were on it.
    @discardableResult
    public func clearListed() throws -> Int {
        try takeOffTheList(author: "item clear-listed", where: "listed")
    }

    /// Shop's "Clear": removes the collected items from the shopping list.
    ///
    /// - Returns: how many items were collected.
    @discardableResult
    public func clearCollected() throws -> Int {
        try takeOffTheList(author: "item clear-collected", where: "listed AND collected")
    }

    /// Unlists and uncollects the items matching an SQL condition, in one save.
    private func takeOffTheList(author: String, where condition: String) throws -> Int {
        try objects.save(author: author) { context in
            let ids = try ItemID.fetchAll(context.db, sql: "SELECT id FROM item WHERE \(condition)")
            for id in ids {
                try context.update(id, values: ["listed": .bool(false), "collected": .bool(false)])
            }
            return ids.count
        }
    }
}
