import Foundation

/// Why the store under the app is changing (Core Data's `NSPersistentStoreUbiquitousTransitionType`,
/// plus the changes this app makes on purpose).
public enum StoreTransition: String, Sendable, Equatable, CaseIterable {
    /// The one-time setup of the cloud store finished: the app leaves the fallback store.
    case initialImportCompleted
    /// The device signed in to an account (from signed out).
    case accountAdded
    /// The device signed out: it goes back to its local store.
    case accountRemoved
    /// The device signed in to another account.
    case accountChanged
    /// A peer started over: this store's cloud content is gone, the app continues on an empty store.
    case contentRemoved
    /// Cloud sync was turned on (`cloud enable`).
    case cloudEnabled
    /// Cloud sync was turned off: the data moved to a plain local store.
    case cloudDisabled
    /// The cloud store was rebuilt from the cloud folder.
    case rebuilt
    /// The app moved to a store of another name (another document: a named list), on the same
    /// account and settings.
    case storeSwitched
}

/// One store a device may run on.
public struct StoreDescription: Sendable, Equatable, CustomStringConvertible {
    public enum Role: String, Sendable, Equatable {
        /// The device's own store, never synced (cloud sync off or signed out).
        case local
        /// The stand-in used until an account's cloud store is set up.
        case fallback
        /// An account's cloud store on the device, linked to the cloud folder.
        case cloud
    }

    public var role: Role
    /// The account of a fallback or cloud store.
    public var account: String?
    public var path: String

    public init(role: Role, account: String?, path: String) {
        self.role = role
        self.account = account
        self.path = path
    }

    /// "cloud store of account \"family\"".
    public var description: String {
        switch role {
        case .local: "local store"
        case .fallback: "fallback store of account \(account.map(\.debugDescription) ?? "?")"
        case .cloud: "cloud store of account \(account.map(\.debugDescription) ?? "?")"
        }
    }
}

/// A change of the store under the app: the stores that go away and the ones that replace them.
public struct StoreChange: Sendable, Equatable {
    public var transition: StoreTransition
    public var removed: [StoreDescription]
    public var added: [StoreDescription]

    public init(transition: StoreTransition, removed: [StoreDescription], added: [StoreDescription]) {
        self.transition = transition
        self.removed = removed
        self.added = added
    }
}

extension StoreChange {
    /// A line for the status bar: "Account changed: now on the cloud store of account \"B\"".
    public var summary: String {
        let what =
            switch transition {
            case .initialImportCompleted: "Cloud store ready"
            case .accountAdded: "Signed in"
            case .accountRemoved: "Signed out"
            case .accountChanged: "Account changed"
            case .contentRemoved:
                "The cloud content was removed (a device started over); your data is kept on this device"
            case .cloudEnabled: "Cloud sync on"
            case .cloudDisabled: "Cloud sync off"
            case .rebuilt: "Rebuilt from the cloud"
            case .storeSwitched: "Another store"
            }
        return added.first.map { "\(what): now on the \($0)" } ?? what
    }
}
