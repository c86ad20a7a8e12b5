import Foundation
import Ubiquity

/// The names a person types for the cloud, checked before a device uses them, and why a cloud
/// folder cannot be used now.
public enum CloudNames {
    /// The account name as the cloud folder spells it. Throws why it is refused.
    public static func checkedAccount(_ typed: String) throws -> String {
        try CloudLayout.checkedAccountName(typed)
    }

    /// The store (list) name as the cloud folder spells it. Throws why it is refused.
    public static func checkedStore(_ typed: String) throws -> String {
        try CloudLayout.checkedStoreName(typed)
    }

    /// Why the cloud folder at `cloud` cannot be used now ("the cloud folder … is missing"),
    /// `nil` when it can.
    public static func unreachableReason(_ cloud: URL) -> String? {
        CloudLayout.unreachableReason(cloud)
    }
}
