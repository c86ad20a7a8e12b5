import Foundation
import StoreLifecycle
import Ubiquity

extension StoreConfiguration {
    /// A device in `directory` (its own sandbox), sharing `directory/Cloud` with the others.
    public static func temporary(in directory: TemporaryDirectory, device: String, defaultData: Bool = false) throws
        -> StoreConfiguration
    {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: device)
        try sandbox.prepare()
        let cloud = directory.file("Cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        return StoreConfiguration(
            sandbox: sandbox, cloud: cloud, defaultData: defaultData,
            peer: try sandbox.peerID(), process: "test")
    }

    /// Changes the device's settings the way `account` and `cloud` commands do (journaled).
    public func changeSettings(_ change: (inout DeviceSettings) -> Void) throws {
        var settings = try DeviceSettings.load(from: sandbox)
        change(&settings)
        try StoreCoordinator.saveSettings(settings, self)
    }
}
