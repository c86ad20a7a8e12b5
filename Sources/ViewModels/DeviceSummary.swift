import Foundation

/// The device's state in a few words, for the status line.
public struct DeviceSummary: Equatable, Sendable {
    public var device: String
    public var account: String?
    public var cloudOn = false
    /// "Using local storage: 1": the local store, or the fallback until the cloud store is set up.
    public var usingLocalStorage = true
    public var offline = false
    /// Offline because the folder at the cloud folder's path is not the one this device synced
    /// with (a share not mounted: an empty mount point).
    public var otherCloudFolder = false
    public var lastSync: Date?
    /// Files of the cloud folder refused (the Cloud tab lists them).
    public var refusedFiles = 0
    /// The named list on screen, when it is not the default one.
    public var list: String?
    /// Who is shopping on the other devices: "Ben is shopping at Aldi".
    public var shoppers: [String] = []
}
