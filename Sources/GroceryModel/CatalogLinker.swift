import Foundation
import GRDB
import Ubiquity

/// Finds the unit or location an item should point at by the name a user typed, creating it
/// when there is none: "kg" finds "kg" (or "Kg" when that is the only spelling).
enum CatalogLinker {
    static func findOrCreate(_ kind: CatalogKind, named raw: String, in context: SaveContext) throws -> GlobalID {
        let name = try Validation.name(raw, field: "\(kind.noun) name")
        let matches = try ReferenceResolver.matches(
            name, table: kind.table, nameColumn: kind.nameAttribute, db: context.db)
        if let exact = matches.first(where: { $0.name == name }) { return exact.id }
        if matches.count == 1 { return matches[0].id }
        if matches.count > 1 {
            throw GroceryError.duplicates(
                kind: kind.noun, reference: name, candidates: matches.map(\.name.debugDescription).sorted())
        }
        return try context.insert(kind.entity, values: [kind.nameAttribute: .string(name)])
    }
}
