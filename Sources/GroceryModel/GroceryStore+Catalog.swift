import Foundation
import GRDB
import Ubiquity

extension GroceryStore {
    /// Every unit, home location or shop aisle, in natural order of names (``NameOrder``).
    public func entries(_ kind: CatalogKind) throws -> [CatalogEntry] {
        try objects.read { db in
            let sql = """
                SELECT e.id, e.\(kind.nameAttribute) AS name, e.modified,
                       (SELECT count(*) FROM item WHERE item.\(kind.itemRelationship) = e.id) AS itemCount
                FROM \(kind.table) e ORDER BY name COLLATE NOCASE, e.id
                """
            let entries = try Row.fetchAll(db, sql: sql).map { row in
                CatalogEntry(
                    kind: kind, id: CatalogEntryID(kind, row["id"]), name: row["name"] ?? "",
                    modified: Date(timeIntervalSince1970: row["modified"]), itemCount: row["itemCount"])
            }
            return NameOrder.naturallySorted(entries, name: \.name)
        }
    }

    /// Adds a unit, home location or shop aisle.
    ///
    /// - Throws: ``GroceryError`` for an invalid name, or one in use (ignoring case and spaces).
    @discardableResult
    public func addEntry(_ kind: CatalogKind, name raw: String) throws -> CatalogEntry {
        let name = try Validation.name(raw, field: "\(kind.noun) name")
        let id = try objects.save(author: "\(kind.rawValue) add") { context in
            try ReferenceResolver.ensureNameIsFree(
                name, kind: kind.noun, table: kind.table, nameColumn: kind.nameAttribute, db: context.db)
            return try context.insert(kind.entity, values: [kind.nameAttribute: .string(name)])
        }
        return try entries(kind).first { $0.id.globalID == id }!
    }

    /// Renames a unit, home location or shop aisle, named as typed (its name or a prefix of its
    /// ID); items keep pointing at it.
    @discardableResult
    public func renameEntry(_ kind: CatalogKind, _ reference: String, to raw: String) throws -> CatalogEntry {
        try renameEntry(kind, EntryReference.reference(reference), to: raw)
    }

    /// The same, for an entry known by its ID (a screen's row): no name to look up.
    @discardableResult
    public func renameEntry(_ id: CatalogEntryID, to raw: String) throws -> CatalogEntry {
        try renameEntry(id.kind, EntryReference.id(id.globalID), to: raw)
    }

    /// Deletes a unit, home location or shop aisle, named as typed; the items that used it lose
    /// the link.
    @discardableResult
    public func removeEntry(_ kind: CatalogKind, _ reference: String) throws -> CatalogEntry {
        try removeEntry(kind, EntryReference.reference(reference))
    }

    /// The same, for an entry known by its ID.
    @discardableResult
    public func removeEntry(_ id: CatalogEntryID) throws -> CatalogEntry {
        try removeEntry(id.kind, EntryReference.id(id.globalID))
    }

    /// How a change names its entry: as typed (a name or an ID prefix), or by a screen's ID.
    private enum EntryReference {
        case reference(String)
        case id(GlobalID)

        func resolve(_ kind: CatalogKind, _ db: Database) throws -> GlobalID {
            switch self {
            case .reference(let reference):
                return try ReferenceResolver.resolve(
                    reference, kind: kind.noun, table: kind.table, nameColumn: kind.nameAttribute, db: db)
            case .id(let id):
                guard
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM \(kind.table) WHERE id = ?)", arguments: [id]) == true
                else {
                    throw GroceryError.notFound(kind: kind.noun, reference: id.description)
                }
                return id
            }
        }
    }

    private func renameEntry(_ kind: CatalogKind, _ reference: EntryReference, to raw: String) throws -> CatalogEntry {
        let name = try Validation.name(raw, field: "\(kind.noun) name")
        let id = try objects.save(author: "\(kind.rawValue) rename") { context in
            let id = try reference.resolve(kind, context.db)
            let others = try ReferenceResolver.matches(
                name, table: kind.table, nameColumn: kind.nameAttribute, db: context.db)
            if let other = others.first(where: { $0.id != id }) {
                throw GroceryError.alreadyExists(kind: kind.noun, name: other.name)
            }
            try context.update(kind.entity, id: id, values: [kind.nameAttribute: .string(name)])
            return id
        }
        return try entries(kind).first { $0.id.globalID == id }!
    }

    private func removeEntry(_ kind: CatalogKind, _ reference: EntryReference) throws -> CatalogEntry {
        let entry = try objects.read { db in try reference.resolve(kind, db) }
        let removed = try entries(kind).first { $0.id.globalID == entry }!
        try objects.save(author: "\(kind.rawValue) rm") { context in
            try context.delete(kind.entity, id: entry)
        }
        return removed
    }
}
