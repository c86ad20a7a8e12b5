import Foundation
import GRDB
import Logging
import TextAndFiles
import Ubiquity

/// Grocery Dude's data on one device: typed operations on items, units and locations, each a
/// single save through the sync engine's ``ObjectStore``, so that each produces one transaction
/// record.
public final class GroceryStore: Sendable {
    /// The store name (Core Data's ubiquitous content name).
    public static let defaultStoreName = "GroceryDude"

    /// The engine's store under the model: the model's code and the device's (`StoreLifecycle`,
    /// which syncs it) use it; the screens and commands above reach the data through this
    /// class's API only.
    package let objects: ObjectStore
    public var modelVersion: Int { objects.schema.version }

    /// Opens a store file, creating it when missing and migrating it to `modelVersion`.
    ///
    /// - Parameters:
    ///   - defaultData: on the store's first open, fill it with the default data (`true`) or
    ///     leave it empty (`false`). Later opens never add it again.
    ///   - peer: the device's peer ID, which every clock reading of its saves ends with.
    ///   - connections: one connection for a command that quits when done, a pool for a
    ///     process that lives on (``StoreConnections``).
    public init(
        path: String,
        modelVersion: Int = GrocerySchema.currentVersion,
        defaultData: Bool = true,
        peer: String = "local",
        clock: any WallClock = MillisecondClock(),
        ids: any IDGenerator = RandomIDGenerator(),
        logger: Logger = .silent,
        connections: StoreConnections = .pooled
    ) throws {
        // Before any other process uses the store: processes started at once on a new device
        // then find the default data loaded, and load it once.
        do {
            objects = try ObjectStore(
                path: path, model: GrocerySchema.definition, version: modelVersion, peer: peer, clock: clock, ids: ids,
                logger: logger, connections: connections
            ) { objects in
                try Self.loadDefaultDataOnFirstLaunch(objects, enabled: defaultData, logger: logger)
                try LocalIndexes.ensure(objects, logger: logger)
            }
        } catch StoreError.notAStore(let path, let reason) {
            throw GroceryError.notAStore(path: path, reason: reason)
        } catch StoreError.newerModelVersion(let store, let app, let path) {
            throw GroceryError.newerModelVersion(store: store, app: app, path: path)
        }
    }

    /// Closes the store: its write-ahead log moves into the store file; later uses throw
    /// ``StoreError/closed(path:)``.
    public func close() throws {
        try objects.close()
    }

    /// Whether the store holds any item, unit or location.
    public func hasData() throws -> Bool {
        try objects.read { db in
            try ["item", "unit", "locationAtHome", "locationAtShop"].contains { table in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") ?? false
            }
        }
    }

    // MARK: - Default data

    static let defaultDataKey = "defaultData"

    private static func loadDefaultDataOnFirstLaunch(_ objects: ObjectStore, enabled: Bool, logger: Logger) throws {
        guard try objects.metadata(Self.defaultDataKey) == nil else { return }
        let summary = try objects.saveShipped(author: "default data", reading: DefaultData.reading) {
            context -> ImportSummary? in
            // Checked again inside the write, in case the store's folder could not be locked.
            guard try context.metadata(Self.defaultDataKey) == nil else { return nil }
            guard enabled else {
                try context.setMetadata(Self.defaultDataKey, "skipped")
                return nil
            }
            let summary = try DefaultDataLoader.insertMissing(try DefaultData.archive(), in: context)
            try context.setMetadata(Self.defaultDataKey, "loaded")
            return summary
        }
        if let summary { logger.info("first launch: loaded default data (\(summary.description))") }
    }

    /// Writes a copy of the store with no trace of syncing (``ObjectStore/writePlainCopy(to:keepingMetadata:)``),
    /// which remembers whether the store had its default data.
    public func writePlainCopy(to url: URL) throws {
        try objects.writePlainCopy(to: url, keepingMetadata: [Self.defaultDataKey])
    }

    /// Adds the shipped default data: each shipped object the store neither holds nor deleted,
    /// under its shipped ID, date and clock reading (``DefaultData``). Objects the store holds
    /// keep what they have, edits included.
    @discardableResult
    public func addDefaultData() throws -> ImportSummary {
        try objects.saveShipped(author: "default data", reading: DefaultData.reading) { context in
            try DefaultDataLoader.insertMissing(try DefaultData.archive(), in: context)
        }
    }
}
