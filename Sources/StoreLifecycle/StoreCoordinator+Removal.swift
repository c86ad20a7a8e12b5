import Foundation
import GroceryModel
import Ubiquity

/// What refuses to remove a store.
public enum StoreRemovalError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case cloudDisabled
    case deviceInUse
    case offline(String)
    case unexported(Int)

    public var description: String {
        switch self {
        case .cloudDisabled: "cloud sync is disabled on this device: grocery-dude cloud enable"
        case .deviceInUse: "the app is running on this device; quit it first (or do this from its menu)"
        case .offline(let path): "the cloud folder \(path) is not reachable, or the device is offline (grocery-dude cloud online)"
        case .unexported(let count):
            "\(count) change(s) could not be exported to the cloud folder; rebuilding now would lose them"
        }
    }

    public var errorDescription: String? { description }
}

/// Rebuild, disable, start over: the commands that remove a store, each performed as a
/// transition, each keeping on the device what it takes away.
extension StoreCoordinator {
    private func requireCloud(online: Bool) throws -> String {
        guard case .cloud(let account) = StoreChoice(try DeviceSettings.load(from: configuration.sandbox)) else {
            throw StoreRemovalError.cloudDisabled
        }
        guard claimDevice() else { throw StoreRemovalError.deviceInUse }
        if online, configuration.isOffline { throw StoreRemovalError.offline(configuration.cloud.path) }
        return account
    }

    // MARK: - Rebuild

    /// Deletes the device's cloud store and rebuilds it from the cloud folder, after exporting
    /// what it has not exported (or refusing). The old file is kept in the account's kept stores.
    ///
    /// - Returns: where the old store is kept.
    public func rebuild() throws -> URL? {
        let account = try requireCloud(online: true)
        if current.role == .fallback { try CloudSetup.run(configuration, account: account); try finishSetup() }
        guard let sync = current.sync else { throw StoreRemovalError.cloudDisabled }
        try sync.exportPending()
        let pending = try sync.pendingExports()
        guard pending == 0 else { throw StoreRemovalError.unexported(pending) }
        var kept: URL?
        let old = current
        let change = StoreChange(transition: .rebuilt, removed: [old.description], added: [old.description])
        _ = try replaceStore(change, detail: { "rebuilt from the cloud folder; the old store is kept at \(kept?.path ?? "?")" }) {
            kept = try setAside(old, label: "before-rebuild")
            return try openAfterSetup(account: account)
        }
        return kept
    }

    // MARK: - Disable

    /// What `cloud disable` did.
    public struct DisableResult: Sendable {
        /// Where the local store that was there before is kept, when it held data.
        public var keptLocalStore: URL?
        public var items: Int
    }

    /// Stops syncing: everything the device holds moves into a plain local store with no cloud
    /// metadata (Core Data's `RemoveUbiquitousMetadata` migration), which the device runs on from
    /// now. The cloud store stays on the device; enabling again goes through the merge prompt.
    public func disable() throws -> DisableResult {
        let account = try requireCloud(online: false)
        var result = DisableResult(items: 0)
        let old = current
        let change = StoreChange(transition: .cloudDisabled, removed: [old.description],
                                 added: [configuration.describe(.local)])
        _ = try replaceStore(change, detail: {
            "cloud sync turned off: \(result.items) item(s) now in the local store"
                + (result.keptLocalStore.map { "; the previous local store is kept at \($0.path)" } ?? "")
        }) {
            var source = old
            if old.role == .fallback {
                // One store holds everything: the fallback's records join the cloud store's.
                source = try DeviceStore.openCloud(configuration, account: account)
                try source.store.objects.copyObjects(from: old.store.objects, author: "fallback store")
                try old.store.objects.close()
                try StoreFiles.remove(URL(fileURLWithPath: old.description.path))
            }
            source.exportPending()
            let local = configuration.localStoreURL
            if StoreFiles.exists(local) {
                let previous = try configuration.openStore(at: local)
                let hasData = try previous.hasData()
                try previous.objects.close()
                if hasData {
                    result.keptLocalStore = try StoreFiles.setAside(
                        local, into: configuration.sandbox.localStoreDirectory.appendingPathComponent("kept", isDirectory: true),
                        label: "before-disable")
                } else {
                    try StoreFiles.remove(local)
                }
            }
            try source.store.objects.writePlainCopy(to: local)
            try source.store.objects.close()
            var settings = try DeviceSettings.load(from: configuration.sandbox)
            settings.cloudEnabled = false
            try settings.save(to: configuration.sandbox)
            let next = try DeviceStore.openLocal(configuration)
            result.items = try next.store.items().count
            return next
        }
        return result
    }

    // MARK: - Start over

    /// What `cloud start-over` did.
    public struct StartOverResult: Sendable {
        public var epoch: Int
        public var deletedFiles: Int
        /// Where this device's data of the old epoch is kept.
        public var keptStore: URL?
    }

    /// Deletes the store's cloud content for every peer — a new epoch begins, the older epochs'
    /// files are deleted — and continues on an empty store. Every other peer that sees the new
    /// epoch moves its store aside (`contentRemoved`). This device's store is kept aside too.
    ///
    /// - Parameter progress: called with (files deleted, files to delete).
    public func startOver(progress: (Int, Int) -> Void = { _, _ in }) throws -> StartOverResult {
        let account = try requireCloud(online: true)
        let layout = try configuration.layout(account: account)
        var result = StartOverResult(epoch: 0, deletedFiles: 0)
        let old = current
        let change = StoreChange(transition: .contentRemoved, removed: [old.description],
                                 added: [configuration.describe(.cloud(account: account))])
        _ = try replaceStore(change, detail: {
            "started over: epoch \(result.epoch) begins, \(result.deletedFiles) file(s) of older epochs deleted; this device's data is kept at \(result.keptStore?.path ?? "?")"
        }) {
            let oldEpoch = old.sync?.layout.epoch ?? layout.currentEpoch()
            result.keptStore = try setAside(old, label: old.role == .fallback ? "fallback" : "epoch-\(oldEpoch)")
            result.epoch = try layout.startNextEpoch(peer: configuration.peer, device: configuration.sandbox.device)
            let files = layout.filesOfEpochs(before: result.epoch)
            progress(0, files.count)
            for file in files {
                try? FileManager.default.removeItem(at: file)
                result.deletedFiles += 1
                if result.deletedFiles % 50 == 0 || result.deletedFiles == files.count { progress(result.deletedFiles, files.count) }
            }
            for folder in layout.foldersOfEpochs(before: result.epoch) { try? FileManager.default.removeItem(at: folder) }
            return try openAfterSetup(account: account)
        }
        return result
    }
}
