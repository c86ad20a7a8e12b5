import Foundation
import GroceryModel
import Ubiquity

/// Where a list belongs: the account it was made in (listed, opened and announced only there; its
/// name is free in every other account), or the device's local store when it was made with cloud
/// sync off or signed out, as the default list's local data.
enum ListScope: Hashable {
    case account(String)
    case local
}

extension NamedLists {
    /// The scope the device works in now: its account while cloud sync is on, else its local store.
    func currentScope() -> ListScope {
        cloudAccountNow().map(ListScope.account) ?? .local
    }

    /// Whether `list` belongs to `scope`. A list from before lists had an account belongs where
    /// its data is: the account whose store on this device or folder in the cloud holds it, else
    /// the local store if it has one there. With no data anywhere, one of this device's own
    /// belongs to the scope asking; one announced by a peer (`announced`) to none: an earlier
    /// build announced lists into whatever account its device was in.
    func belongs(_ list: NamedList, to scope: ListScope, announced: Bool = false) -> Bool {
        if list.isDefault { return true }
        if let account = list.account { return scope == .account(account) }
        if list.local == true { return scope == .local }
        let homes = dataScopes(of: list.storeName)
        return homes.contains(scope) || (homes.isEmpty && !announced)
    }

    /// Marks a list of no scope with the one it belongs to (see ``belongs(_:to:)``).
    func stamped(_ list: NamedList, in scope: ListScope) -> NamedList {
        guard !list.isDefault, list.account == nil, list.local != true else { return list }
        var list = list
        switch scope {
        case .account(let account): list.account = account
        case .local: list.local = true
        }
        return list
    }

    /// The scopes whose stores hold data of the store `storeName`: this device's local store,
    /// its cloud stores of each account, and the current account's folder in the cloud.
    private func dataScopes(of storeName: String) -> Set<ListScope> {
        let files = FileManager.default
        var scopes: Set<ListScope> = []
        var local = configuration
        local.storeName = storeName
        if files.fileExists(atPath: local.localStoreURL.path) { scopes.insert(.local) }
        let accounts = (try? files.contentsOfDirectory(atPath: configuration.sandbox.ubiquityFolder.path)) ?? []
        for account in accounts
        where files.fileExists(
            atPath: configuration.sandbox.cloudStoreURL(account: account, storeName: storeName)
                .deletingLastPathComponent().path)
        {
            scopes.insert(.account(account))
        }
        if let account = cloudAccountNow(), CloudLayout.isReachable(configuration.cloud),
            files.fileExists(
                atPath: CloudLayout.accountFolder(cloud: configuration.cloud, account: account).appendingPathComponent(
                    storeName
                ).path)
        {
            scopes.insert(.account(account))
        }
        return scopes
    }
}
