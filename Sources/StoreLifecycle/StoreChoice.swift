import Foundation
import Ubiquity

/// The store a device's settings ask for: its local store, or an account's cloud store (run on
/// the fallback store until that is set up).
public enum StoreChoice: Equatable, Sendable {
    case local
    case cloud(account: String)

    public init(_ settings: DeviceSettings) {
        if settings.cloudEnabled, let account = settings.account {
            self = .cloud(account: account)
        } else {
            self = .local
        }
    }
}

extension StoreTransition {
    /// The transition a change of settings makes, or `nil` when the device stays on its store.
    public static func between(_ old: DeviceSettings, _ new: DeviceSettings) -> StoreTransition? {
        let before = StoreChoice(old)
        let after = StoreChoice(new)
        guard before != after else { return nil }
        switch (before, after) {
        case (.cloud, .cloud): return .accountChanged
        case (.local, .cloud): return old.account == nil ? .accountAdded : .cloudEnabled
        case (.cloud, .local): return new.account == nil ? .accountRemoved : .cloudDisabled
        case (.local, .local): return nil
        }
    }
}
