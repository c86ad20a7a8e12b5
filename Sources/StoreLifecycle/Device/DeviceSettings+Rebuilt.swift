import Foundation
import Ubiquity

extension DeviceSettings {
    /// The settings a device's folder tells without its settings file: the store the latest
    /// transition added (an account's cloud or fallback store, or the local store) says the
    /// account and whether cloud sync is on; the stores remember the cloud folder's IDs. With no
    /// history, the account whose cloud store was used last. "Airplane mode" and a merge under
    /// way are not told by anything else: they read as off (a merge is offered again by
    /// `cloud enable --merge`, and copies nothing twice).
    static func rebuilt(from sandbox: DeviceSandbox) -> DeviceSettings {
        let manager = FileManager.default
        let accounts = ((try? manager.contentsOfDirectory(atPath: sandbox.ubiquityFolder.path)) ?? []).sorted()
        func account(named description: String) -> String? {
            accounts.first { name in
                [
                    "cloud store of account \(name.debugDescription)",
                    "fallback store of account \(name.debugDescription)",
                ].contains(description)
            }
        }
        var settings = DeviceSettings()
        var decided = false
        let entries = TransitionJournal(sandbox: sandbox).entries(limit: 10_000)
        history: for (index, entry) in entries.enumerated() {
            for added in entry.added {
                if let name = account(named: added) {
                    (settings.cloudEnabled, settings.account, decided) = (true, name, true)
                    break history
                }
                if added == "local store" {
                    settings.cloudEnabled = false
                    // Signed out, or still signed in to the account whose store it left.
                    settings.account =
                        entry.transition == StoreTransition.accountRemoved.rawValue
                        ? nil
                        : entries[index...].lazy.flatMap { $0.removed + $0.added }.compactMap(account(named:)).first
                            ?? defaultAccount
                    decided = true
                    break history
                }
            }
        }
        if !decided {
            // No history: the account whose cloud store changed last, if any.
            let used = accounts.compactMap { name -> (String, Date)? in
                let stores = sandbox.storeFiles.filter {
                    $0.path.hasPrefix(sandbox.ubiquityFolder.appendingPathComponent(name).path + "/")
                }
                let dates = stores.compactMap {
                    (try? manager.attributesOfItem(atPath: $0.path)[.modificationDate]) as? Date
                }
                return dates.max().map { (name, $0) }
            }
            if let latest = used.max(by: { $0.1 < $1.1 }) {
                (settings.cloudEnabled, settings.account) = (true, latest.0)
            }
        }
        for name in accounts {
            let folder = sandbox.ubiquityFolder.appendingPathComponent(name).path + "/"
            var ids: Set<String> = []
            for store in sandbox.storeFiles where store.path.hasPrefix(folder) {
                if let text = SQLiteFile.metadata(CloudFolderIdentity.metadataKey, in: store),
                    let remembered = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
                {
                    ids.formUnion(remembered)
                }
            }
            if !ids.isEmpty { settings.cloudFolderIDs[name] = ids.sorted() }
        }
        return settings
    }
}
