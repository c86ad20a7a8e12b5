import Foundation
import Ubiquity

/// A device of the account that works on another model version of the store than this one, and
/// so does not sync with it for now (``CloudLayout/devicesOnOtherModelVersions()``): the silo is
/// by design, and said, never silent.
public struct OtherModelNote: Equatable, Sendable {
    public var peer: String
    public var device: String?
    public var modelVersion: Int
    /// Whether its version is older than this device's.
    public var isOlder: Bool
    /// When its newest log there reached the folder.
    public var lastSeen: Date?
    /// `device "laptop" is on an older version (model 2): its changes arrive when it updates`.
    public var summary: String

    init(_ other: CloudLayout.DeviceOnOtherModel, here: Int) {
        peer = other.peer
        device = other.device
        modelVersion = other.modelVersion
        isOlder = other.modelVersion < here
        lastSeen = other.lastSeen
        summary =
            isOlder
            ? "\(other.name) is on an older version (model \(other.modelVersion)): its changes arrive when it updates"
            : "\(other.name) is on a newer version (model \(other.modelVersion)): update this device to see its changes"
    }
}
