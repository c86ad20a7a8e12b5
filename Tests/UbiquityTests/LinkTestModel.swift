import Foundation
import GRDB

@testable import Ubiquity

/// A model of links, to show that the engine's unique keys of several parts and objects that
/// belong to others are generic: notes (unique by title) and folders (unique by name); tags,
/// unique by name within their folder; and filings — a note filed in a folder under one of its
/// tags, one per note and folder — which belong to their note, folder and tag alike.
enum LinkTestModel {
    static let schema = Schema(
        version: 1,
        entities: [
            EntityDescription(
                name: "Note", table: "note", attributes: [AttributeDescription("title", .string)],
                uniqueAttribute: "title"),
            EntityDescription(
                name: "Folder", table: "folder", attributes: [AttributeDescription("name", .string)],
                uniqueAttribute: "name"),
            EntityDescription(
                name: "Tag", table: "tag",
                attributes: [AttributeDescription("name", .string), AttributeDescription("rank", .double)],
                relationships: [RelationshipDescription("folder", to: "Folder", belongsToTarget: true)],
                uniqueAttribute: "name", uniqueWithin: ["folder"]),
            EntityDescription(
                name: "Filing", table: "filing", attributes: [AttributeDescription("starred", .bool)],
                relationships: [
                    RelationshipDescription("note", to: "Note", belongsToTarget: true),
                    RelationshipDescription("folder", to: "Folder", belongsToTarget: true),
                    RelationshipDescription("tag", to: "Tag", belongsToTarget: true),
                ],
                uniqueWithin: ["note", "folder"]),
        ])

    static let definition = ModelDefinition(versions: [
        ModelVersion(schema: schema) { db in
            for (table, column) in [("note", "title"), ("folder", "name")] {
                try db.create(table: table) { t in
                    t.primaryKey("id", .text)
                    t.column(column, .text)
                }
            }
            try db.create(table: "tag") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
                t.column("rank", .double)
                t.column("folder", .text)
            }
            try db.create(table: "filing") { t in
                t.primaryKey("id", .text)
                t.column("starred", .boolean)
                t.column("note", .text)
                t.column("folder", .text)
                t.column("tag", .text)
            }
        }
    ])
}
