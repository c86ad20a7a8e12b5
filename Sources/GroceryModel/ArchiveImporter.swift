import Foundation
import GRDB
import Ubiquity

/// Writes an archive into a store inside one save: all of it, or, when any record is invalid,
/// nothing (the save throws and its transaction rolls back).
///
/// Objects are matched on their unique attribute, spelled exactly as in the file (in whichever
/// Unicode form: Swift's `String` keys compare canonically, and names are stored in NFC), so
/// importing the same file twice creates nothing new. A matched object takes the file's values for the
/// fields the file has; fields the file leaves out (or empty links) keep the store's values.
/// Shops, their aisles and items' aisles in them are in ``ArchiveImporter+Shops.swift``.
struct ArchiveImporter {
    let context: SaveContext
    var catalog: [CatalogKind: [String: GlobalID]] = [:]
    var itemsByName: [String: GlobalID] = [:]
    var summary = ImportSummary()
    /// Shops by exact name (``ArchiveImporter+Shops.swift``), loaded at the first shop.
    var shopsByName: [String: GlobalID]?
    /// Each other shop's aisles by exact name, loaded per shop.
    var shopAisles: [GlobalID: [String: GlobalID]] = [:]
    /// Each item's aisle links in other shops: item → shop → (link, aisle); loaded once.
    var itemAisles: [GlobalID: [GlobalID: (link: GlobalID, aisle: GlobalID)]]?

    /// Whether the store has shops, walking orders and items' aisles in them (model version 3).
    var hasShops: Bool { context.schema.version >= 3 }

    private init(context: SaveContext) {
        self.context = context
    }

    /// Imports `archive` through `context`; throws ``ArchiveError`` at the first invalid record.
    static func apply(_ archive: GroceryArchive, in context: SaveContext) throws -> ImportSummary {
        var importer = ArchiveImporter(context: context)
        return try importer.apply(archive)
    }

    private mutating func apply(_ archive: GroceryArchive) throws -> ImportSummary {
        for kind in CatalogKind.allCases {
            catalog[kind] = try Self.index(table: kind.table, nameColumn: kind.nameAttribute, db: context.db)
            for (index, record) in archive.records(kind).enumerated() {
                try Self.within("\(kind.noun) \(index + 1)") {
                    let name = try Validation.importedName(record.name, field: "\(kind.noun) name")
                    guard kind == .shop else {
                        guard record.position == nil else { throw RecordFault("only aisles have a position") }
                        _ = try link(kind, name: name, modified: record.modified, counted: true)
                        return
                    }
                    try applyAisle(record, name: name, in: GrocerySchema.defaultShopID)
                }
            }
        }
        for (index, record) in (archive.shops ?? []).enumerated() {
            try apply(record, place: "shop \(index + 1) (\(ValueRule.shortened(record.name).debugDescription))")
        }
        itemsByName = try Self.index(table: "item", nameColumn: "name", db: context.db)
        for (index, record) in archive.items.enumerated() {
            // The name as messages quote names: a file's name of a million characters is no line.
            try Self.within("item \(index + 1) (\(ValueRule.shortened(record.name).debugDescription))") {
                try apply(record)
            }
        }
        return summary
    }

    // MARK: - Items

    private mutating func apply(_ record: ItemRecord) throws {
        let name = try Validation.importedName(record.name, field: "item name")
        var values: [String: PropertyValue] = ["name": .string(name)]
        if let quantity = record.quantity { values["quantity"] = .double(try Validation.quantity(quantity)) }
        if let listed = record.listed { values["listed"] = .bool(listed) }
        if let collected = record.collected { values["collected"] = .bool(collected) }
        if let modified = record.modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        if let note = record.note, context.schema.version >= 2 {
            values["note"] = .string(try Validation.importedName(note, field: "note"))
        }
        for (kind, linked) in [
            (CatalogKind.unit, record.unit), (.home, record.homeLocation), (.shop, record.shopLocation),
        ] {
            guard let linked, !linked.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let name = try Validation.importedName(linked, field: "\(kind.noun) name")
            values[kind.itemRelationship] = .reference(try link(kind, name: name, modified: nil, counted: false))
        }
        let otherShops = try aisles(of: record, values: &values)

        let entity = GrocerySchema.Entity.item
        if let id = itemsByName[name] {
            var changed = false
            if let photo = record.photo {
                changed = try attach(photo, modified: record.modified, to: id, values: &values)
            }
            if try place(item: id, in: otherShops) { changed = true }
            // The file's modification date alone is no change.
            let current = try context.values(of: entity, id: id) ?? [:]
            let differs = values.contains { $0.key != "modified" && current[$0.key] != $0.value }
            if differs || changed {
                try context.update(entity, id: id, values: values)
                summary.items.updated += 1
            } else {
                summary.items.unchanged += 1
            }
        } else {
            if let photo = record.photo {
                let photoID = try context.insert(
                    GrocerySchema.Entity.itemPhoto, values: photoValues(photo, record.modified))
                values["photo"] = .reference(photoID)
            }
            let id = try context.insert(entity, values: values)
            itemsByName[name] = id
            try place(item: id, in: otherShops)
            summary.items.inserted += 1
        }
    }

    /// Gives a matched item the file's photo. Returns whether anything changed.
    private func attach(_ photo: Data, modified: Date?, to item: GlobalID, values: inout [String: PropertyValue]) throws
        -> Bool
    {
        let current = try context.values(of: GrocerySchema.Entity.item, id: item)
        if case .reference(let photoID)? = current?["photo"],
            let stored = try context.values(of: GrocerySchema.Entity.itemPhoto, id: photoID)
        {
            if stored["data"] == .data(photo) { return false }
            try context.update(GrocerySchema.Entity.itemPhoto, id: photoID, values: photoValues(photo, modified))
            return true
        }
        let photoID = try context.insert(GrocerySchema.Entity.itemPhoto, values: photoValues(photo, modified))
        values["photo"] = .reference(photoID)
        return true
    }

    private func photoValues(_ photo: Data, _ modified: Date?) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = ["data": .data(photo)]
        if let modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        return values
    }

    // MARK: - Units and locations

    /// The entry named exactly `name`, created when missing.
    mutating func link(_ kind: CatalogKind, name: String, modified: Date?, counted: Bool) throws -> GlobalID {
        if let id = catalog[kind]?[name] {
            if counted { summary[kind].unchanged += 1 }
            return id
        }
        var values: [String: PropertyValue] = [kind.nameAttribute: .string(name)]
        if let modified { values["modified"] = .date(Timestamp.rounded(modified)) }
        let id = try context.insert(kind.entity, values: values)
        catalog[kind, default: [:]][name] = id
        summary[kind].inserted += 1
        return id
    }

    // MARK: - Helpers

    /// Name → ID for a table; with several objects of one name, the smallest ID (deterministic).
    static func index(
        table: String, nameColumn: String, db: Database, filter: String = "", arguments: StatementArguments = []
    ) throws -> [String: GlobalID] {
        var index: [String: GlobalID] = [:]
        let sql = "SELECT id, \(nameColumn) AS name FROM \(table)\(filter) ORDER BY id DESC"
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            if let name: String = row["name"] { index[name] = row["id"] }
        }
        return index
    }

    /// Runs `body`, prefixing any error it throws with where in the file it happened.
    static func within(_ place: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as GroceryError {
            throw ArchiveError.invalidRecord(place: place, reason: error.description)
        } catch let fault as RecordFault {
            throw ArchiveError.invalidRecord(place: place, reason: fault.reason)
        }
    }
}

/// What is wrong with one record, said where it is (``ArchiveImporter/within(_:_:)``).
struct RecordFault: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A record of an archive that cannot be imported.
public enum ArchiveError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidRecord(place: String, reason: String)
    case malformed(String)

    public var description: String {
        switch self {
        case .invalidRecord(let place, let reason): "\(place): \(reason)"
        case .malformed(let reason): reason
        }
    }

    public var errorDescription: String? { description }
}
