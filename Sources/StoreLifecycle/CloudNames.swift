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

    /// Why there is no folder to use at `cloud` ("the cloud folder … does not exist"), `nil`
    /// when there is one (it may still not be the account's: ``StoreConfiguration/cloudFolderProblem``).
    public static func missingFolderReason(_ cloud: URL) -> String? {
        CloudLayout.unreachableReason(cloud)
    }
}
