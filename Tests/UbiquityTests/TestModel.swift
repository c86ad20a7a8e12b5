import Foundation
import GRDB

@testable import Ubiquity

/// A small model of its own, to show the engine is generic: notes (unique by title) with a
/// folder (unique by name; nullify) and an attachment (cascade). Version 2 adds `Note.pinned`.
/// Titles are names (something visible, at most 100 characters); counts go from 0 to 1000.
enum TestModel {
    static func schema(version: Int) -> Schema {
        var noteAttributes = [
            AttributeDescription("title", .string, default: .string("Untitled"), rule: .name(maximumLength: 100)),
            AttributeDescription(
                "count", .integer, default: .integer(0), rule: ValueRule(optional: false, range: 0...1000)),
            AttributeDescription("modified", .date),
        ]
        if version >= 2 { noteAttributes.append(AttributeDescription("pinned", .bool, default: .bool(false))) }
        return Schema(
            version: version,
            entities: [
                EntityDescription(
                    name: "Note", table: "note", attributes: noteAttributes,
                    relationships: [
                        RelationshipDescription("folder", to: "Folder"),
                        RelationshipDescription("attachment", to: "Attachment", deleteRule: .cascade),
                    ],
                    uniqueAttribute: "title", modificationDateAttribute: "modified"),
                EntityDescription(
                    name: "Folder", table: "folder", attributes: [AttributeDescription("name", .string)],
                    uniqueAttribute: "name"),
                EntityDescription(
                    name: "Attachment", table: "attachment", attributes: [AttributeDescription("bytes", .data)]),
            ])
    }

    static let definition = ModelDefinition(versions: [
        ModelVersion(schema: schema(version: 1)) { db in
            try db.create(table: "folder") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
            }
            try db.create(table: "attachment") { t in
                t.primaryKey("id", .text)
                t.column("bytes", .blob)
            }
            try db.create(table: "note") { t in
                t.primaryKey("id", .text)
                t.column("title", .text).notNull()
                t.column("count", .integer).notNull()
                t.column("modified", .double)
                t.column("folder", .text)
                t.column("attachment", .text)
            }
        },
        ModelVersion(schema: schema(version: 2)) { db in
            try db.alter(table: "note") { t in t.add(column: "pinned", .boolean).notNull().defaults(to: false) }
        },
    ])
}
