import Foundation
import GRDB

/// One version of a data model: its schema and the migration that brings a store of the
/// previous version to it (the first version's creates the tables).
public struct ModelVersion: Sendable {
    public let schema: Schema
    public let migrate: @Sendable (Database) throws -> Void

    public init(schema: Schema, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.schema = schema
        self.migrate = migrate
    }

    public var version: Int { schema.version }
    /// The name of the migration in the store's `grdb_migrations` table. Only ever appended.
    var migrationIdentifier: String { "model-v\(version)" }
}

/// A data model: its versions, oldest first, numbered 1, 2, 3 …
public struct ModelDefinition: Sendable {
    public let versions: [ModelVersion]

    public init(versions: [ModelVersion]) {
        precondition(!versions.isEmpty)
        for (index, version) in versions.enumerated() {
            precondition(version.version == index + 1, "model versions are numbered 1, 2, 3 …")
        }
        self.versions = versions
    }

    public var currentVersion: Int { versions.count }

    /// The column the engine adds to every table of the model, which holds each object's
    /// property clocks. A migration that rebuilds a table (a new table, the rows copied, the old
    /// one dropped) carries this column over like any other: without it, the objects lose their
    /// readings, and any value a peer sends wins over theirs. No property may take this name.
    public static let clockColumn = EngineTables.clockColumn

    public func version(_ number: Int) throws -> ModelVersion {
        guard versions.indices.contains(number - 1) else { throw StoreError.unknownModelVersion(number) }
        return versions[number - 1]
    }

    /// The migrator that brings a store up to `version`: the engine's own tables, then the
    /// model's versions up to that one.
    func migrator(upTo version: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("ubiquity-v1", migrate: EngineTables.create)
        for modelVersion in versions.prefix(version) {
            migrator.registerMigration(modelVersion.migrationIdentifier) { db in
                try modelVersion.migrate(db)
                // A table this version creates holds its objects' clocks too.
                try EngineTables.addClockColumns(to: modelVersion.schema, db)
            }
        }
        // The engine's later tables come after the model's versions: a store of any version
        // gets them, and an older build sees a migration it does not know and refuses the store.
        migrator.registerMigration("ubiquity-v2", migrate: EngineTables.createRefusedFiles)
        migrator.registerMigration("ubiquity-v3", migrate: EngineTables.addMergedInto)
        migrator.registerMigration("ubiquity-v4", migrate: EngineTables.createFolderScans)
        migrator.registerMigration("ubiquity-v5", migrate: EngineTables.rebuildOutbox)
        migrator.registerMigration("ubiquity-v6", migrate: EngineTables.packClocks)
        let schema = versions[max(0, min(version, versions.count) - 1)].schema
        migrator.registerMigration("ubiquity-v7") { db in try EngineTables.moveClocksIntoRows(of: schema, db) }
        migrator.registerMigration("ubiquity-v8", migrate: ChangeHistory.create)
        return migrator
    }
}
