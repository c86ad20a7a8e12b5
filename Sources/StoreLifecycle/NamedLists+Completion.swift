import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

extension NamedLists {
    /// The names a shell offers for `--list` on `sandbox`'s device: the lists of its registry
    /// (`lists.json`) in the scope the device works in now (its account while cloud sync is on,
    /// else its local store), its stores that have no name yet (named after their store), and
    /// the default list. A name two lists share is offered as their store names, which name one
    /// each (the name alone is refused as ambiguous).
    ///
    /// Only the device's own files are read — the registry, its settings, its store folders —
    /// never the cloud folder, so Tab never waits on a share that hangs or is not mounted. The
    /// registry is the device's copy of every device's word on its lists: each command that
    /// reads the lists (any command with `--list`, `lists ls`, the running app's list follower)
    /// writes into it what the account's synced key-value store announced. Nothing is written
    /// here; a list made on another device since the last such read is not offered yet.
    public static func namesForCompletion(of sandbox: DeviceSandbox) -> [String] {
        let scope = localScope(of: sandbox)
        var lists: [String: String] = [:]
        for entry in registryEntries(of: sandbox) where entry.removed == nil && entry.belongs(to: scope) {
            lists[entry.storeName] = entry.name
        }
        for storeName in storeNames(of: sandbox, in: scope).union([GroceryStore.defaultStoreName])
        where lists[storeName] == nil {
            lists[storeName] = unnamed(storeName).name
        }
        let byName = Dictionary(grouping: lists, by: { UniqueKey.normalize($0.value) })
        return byName.values.flatMap { sharing in
            sharing.count == 1 ? sharing.map(\.value) : sharing.map(\.key)
        }.sorted(by: NaturalOrder.areInIncreasingOrder)
    }

    /// What the registry says of one list, as far as completion needs it: the dates stay text.
    private struct RegistryEntry: Decodable {
        var storeName: String
        var name: String
        var removed: String?
        var account: String?
        var local: Bool?

        /// Where the list belongs, as ``NamedLists/belongs(_:to:announced:)`` decides from the
        /// list alone; a list of no scope (made by an earlier build) is offered everywhere.
        func belongs(to scope: ListScope) -> Bool {
            if storeName == GroceryStore.defaultStoreName { return true }
            if let account { return scope == .account(account) }
            if local == true { return scope == .local }
            return true
        }
    }

    private static func registryEntries(of sandbox: DeviceSandbox) -> [RegistryEntry] {
        let registry = sandbox.root.appendingPathComponent("lists.json")
        guard let data = try? Data(contentsOf: registry) else { return [] }
        return (try? JSONDecoder().decode([RegistryEntry].self, from: data)) ?? []
    }

    /// The scope the device works in, from its settings file alone (read, never rebuilt).
    private static func localScope(of sandbox: DeviceSandbox) -> ListScope {
        guard let data = try? Data(contentsOf: sandbox.settingsURL),
            let settings = try? JSONDecoder().decode(DeviceSettings.self, from: data),
            settings.cloudEnabled, let account = settings.account
        else { return .local }
        return .account(account)
    }

    /// The store names of the device's own stores in `scope`: its local stores, or its stores
    /// of the account.
    private static func storeNames(of sandbox: DeviceSandbox, in scope: ListScope) -> Set<String> {
        let files = FileManager.default
        switch scope {
        case .local:
            let names = (try? files.contentsOfDirectory(atPath: sandbox.localStoreDirectory.path)) ?? []
            return Set(
                names.filter { $0.hasSuffix(".sqlite") }.compactMap {
                    try? CloudLayout.checkedStoreName(String($0.dropLast(".sqlite".count)))
                })
        case .account(let account):
            let folder = sandbox.ubiquityFolder.appendingPathComponent(account, isDirectory: true)
            let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
            return Set(names.compactMap { try? CloudLayout.checkedStoreName($0) })
        }
    }
}
