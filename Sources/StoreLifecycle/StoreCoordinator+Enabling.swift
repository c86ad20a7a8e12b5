import Foundation
import GroceryModel
import Ubiquity

/// "Enable cloud sync", one operation for the command line and the Cloud screen: what it asks
/// about (the local store's data: "Merge with Cloud?") and turning the setting on.
extension StoreCoordinator {
    /// How many items the device's local store holds when it holds any data (items, units or
    /// locations); nil when it holds none or there is no local store. `current`, the store the
    /// device runs on, is read instead of opening the file again when it is the local store.
    public static func localData(_ configuration: StoreConfiguration, current: DeviceStore? = nil) throws -> Int? {
        if let current, current.role == .local {
            return try current.store.hasData() ? try current.store.items().count : nil
        }
        guard FileManager.default.fileExists(atPath: configuration.localStoreURL.path) else { return nil }
        let store = try configuration.openStore(at: configuration.localStoreURL)
        defer { try? store.close() }
        return try store.hasData() ? try store.items().count : nil
    }

    /// Turns "Enable cloud sync" on for the account the device is signed in to: creates the
    /// default cloud folder, then saves and journals the setting (`cloudEnabled`). The device
    /// moves to the account's store at the coordinator's next look (``poll()``, or a command's
    /// open).
    ///
    /// - Parameter mergingLocalStore: remember the local store as the one to merge into the
    ///   cloud store first (``rememberSeed(from:)``): the merge then happens once the cloud store
    ///   is set up, and a crash meanwhile leaves it for the next start.
    /// - Parameter date: when, for the journal (an app gives its coordinator's ``now``).
    public static func enableCloudSync(
        _ configuration: StoreConfiguration, mergingLocalStore: Bool = false, at date: Date = Date()
    ) throws {
        if mergingLocalStore { try rememberSeed(from: configuration.localStoreURL, configuration) }
        configuration.createCloudFolderIfAllowed()
        var settings = try DeviceSettings.load(from: configuration.sandbox)
        settings.cloudEnabled = true
        try saveSettings(settings, configuration, at: date)
    }
}
