import Foundation
import GroceryModel
import Ubiquity

/// What refuses to remove a store. The message says what is wrong; the command line and the
/// screens add which command or key puts it right.
public enum StoreRemovalError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case cloudDisabled
    /// The device was set offline (`cloud offline`, or `o` on the Cloud screen).
    case deviceOffline
    /// The device is held by another process: the running app or `cloud watch` (named when known).
    case deviceInUse(holder: String?)
    /// The cloud folder cannot be used now: why.
    case offline(String)
    case unexported(Int)
    /// Devices of a build before folder markers published in the content a start over removes.
    case earlierBuilds([String])

    public var description: String {
        switch self {
        case .cloudDisabled: "cloud sync is disabled on this device"
        case .deviceOffline: "the device is offline"
        case .deviceInUse(let holder?) where holder.hasPrefix("grocery-dude tui "):
            "the app is running on this device (\(holder)); quit it first, or do this from its menu"
        case .deviceInUse(let holder?): "\(holder) is using this device; wait for it to end, or stop it"
        case .deviceInUse(nil): "the app is running on this device; quit it first (or do this from its menu)"
        case .offline(let reason): reason
        case .earlierBuilds(let devices):
            "\(devices.joined(separator: ", ")) published here with an earlier build of grocery-dude, which would not see this start over and would go on alone: update \(devices.count == 1 ? "it" : "them") first (the first command after the update marks the cloud folder)"
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
        guard claimDevice() else {
            throw StoreRemovalError.deviceInUse(holder: DeviceLock.holder(of: configuration.sandbox))
        }
        if online, let offline = configuration.offlineError { throw offline }
        return account
    }

    // MARK: - Rebuild

    /// Rebuilds the device's cloud store from the cloud folder, after exporting what it has not
    /// exported (or refusing). The new store is set up beside the old one first; only once it is
    /// whole does it take the old one's place, and the old file is kept in the account's kept
    /// stores. A rebuild that fails (a full disk, the folder gone) changes nothing.
    ///
    /// - Returns: where the old store is kept.
    public func rebuild() throws -> URL? {
        let account = try requireCloud(online: true)
        if current.role == .fallback {
            try CloudSetup.run(configuration, account: account)
            try finishSetup()
        }
        guard let sync = current.sync else { throw StoreRemovalError.cloudDisabled }
        try sync.exportPending()
        let pending = try sync.pendingExports()
        guard pending == 0 else { throw StoreRemovalError.unexported(pending) }
        let url = configuration.cloudStoreURL(account: account)
        // Holds only what the cloud folder holds: one a rebuild cut short left is set up anew.
        let staging = url.deletingLastPathComponent().appendingPathComponent("rebuilding.sqlite")
        try? StoreFiles.remove(staging)
        do {
            guard try CloudSetup.run(configuration, account: account, at: staging, onImport: { _ in }) else {
                throw configuration.offlineError ?? StoreRemovalError.deviceOffline
            }
            // The device's history goes with it: the cloud folder holds only what a baseline left.
            try ChangeHistory.copy(from: url, into: staging)
        } catch {
            try? StoreFiles.remove(staging)
            throw error
        }
        var kept: URL?
        let old = current
        let change = StoreChange(transition: .rebuilt, removed: [old.description], added: [old.description])
        _ = try replaceStore(
            change, detail: { "rebuilt from the cloud folder; the old store is kept at \(kept?.path ?? "?")" }
        ) {
            kept = try setAside(old, label: "before-rebuild")
            try StoreFiles.move(staging, to: url)
            return try DeviceStore.openCloud(configuration, account: account)
        }
        return kept
    }

    // MARK: - Disable

    /// What `cloud disable` did.
    public struct DisableResult: Sendable {
        /// Items in the local store the device now runs on.
        public var items: Int
        /// Whether the device went back to its earlier local data — the data the user chose not
        /// to merge — rather than taking a copy of the cloud's.
        public var returnedToLocalData = false
        /// Items of the account's cloud store, which stays on the device and in the cloud.
        public var cloudItems = 0

        /// What happened, for the user: where each set of data now is.
        public var summary: String {
            func items(_ count: Int) -> String { "\(count) item\(count == 1 ? "" : "s")" }
            guard returnedToLocalData else {
                return
                    "Cloud sync off: \(items(self.items)) now in this device's local store; the cloud keeps its copy."
            }
            return
                "Cloud sync off: back to this device's own local data (\(items(self.items)), not merged into the cloud). "
                + "The account's data (\(items(cloudItems))) stays in the cloud: turn cloud sync on again to see it, and choose Merge to bring these local items in."
        }
    }

    /// Stops syncing. Which data the device then runs on:
    /// - its earlier local store, when that holds data: the data the user chose not to merge
    ///   ("Don't Merge"), as the book's app did when iCloud was turned off. The cloud's data
    ///   stays in the account's cloud store on the device and in the cloud folder; turning sync
    ///   on again asks "Merge with Cloud?" again, and Merge brings the local data in.
    /// - otherwise a plain copy of everything the device holds, with no cloud metadata (Core
    ///   Data's `RemoveUbiquitousMetadata` migration, Apple's "disable").
    /// Nothing the user made is left only in a file set aside.
    public func disable() throws -> DisableResult {
        let account = try requireCloud(online: false)
        var result = DisableResult(items: 0)
        let old = current
        let change = StoreChange(
            transition: .cloudDisabled, removed: [old.description],
            added: [configuration.describe(.local)])
        _ = try replaceStore(
            change,
            detail: {
                result.returnedToLocalData
                    ? "cloud sync turned off: back to the local store's own \(result.items) item(s), not merged; the account's \(result.cloudItems) item(s) stay in its cloud store"
                    : "cloud sync turned off: \(result.items) item(s) now in the local store"
            }
        ) {
            var source = old
            if old.role == .fallback {
                // One store holds everything: the fallback's records join the cloud store's.
                source = try DeviceStore.openCloud(configuration, account: account)
                try source.store.objects.copyObjects(from: old.store.objects, author: "fallback store")
                try old.close()
                try StoreFiles.remove(URL(fileURLWithPath: old.description.path))
            }
            source.exportPending()
            result.cloudItems = try source.store.items().count
            let local = configuration.localStoreURL
            if StoreFiles.exists(local) {
                let previous = try configuration.openStore(at: local)
                result.returnedToLocalData = try previous.hasData()
                try previous.close()
                if !result.returnedToLocalData { try StoreFiles.remove(local) }
            }
            if !result.returnedToLocalData { try source.store.writePlainCopy(to: local) }
            try source.close()
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
    /// - Parameters:
    ///   - despiteEarlierBuilds: go on though devices of a build before folder markers published
    ///     in this epoch (``CloudLayout/devicesOfEarlierBuilds()``): they will not see it.
    ///   - progress: called with (files deleted, files to delete).
    /// - Throws: ``StoreRemovalError/earlierBuilds(_:)`` naming those devices, unless told.
    public func startOver(despiteEarlierBuilds: Bool = false, progress: (Int, Int) -> Void = { _, _ in }) throws
        -> StartOverResult
    {
        let account = try requireCloud(online: true)
        let layout = try configuration.layout(account: account)
        let earlier = try configuration.layout(
            account: account, epoch: current.sync?.layout.epoch ?? layout.currentEpoch()
        ).devicesOfEarlierBuilds()
        if !earlier.isEmpty, !despiteEarlierBuilds { throw StoreRemovalError.earlierBuilds(earlier) }
        var result = StartOverResult(epoch: 0, deletedFiles: 0)
        let old = current
        let change = StoreChange(
            transition: .contentRemoved, removed: [old.description],
            added: [configuration.describe(.cloud(account: account))])
        _ = try replaceStore(
            change,
            detail: {
                "started over: epoch \(result.epoch) begins, \(result.deletedFiles) file(s) of older epochs deleted; this device's data is kept at \(result.keptStore?.path ?? "?")"
            }
        ) {
            let oldEpoch = old.sync?.layout.epoch ?? layout.currentEpoch()
            result.keptStore = try setAside(old, label: old.role == .fallback ? "fallback" : "epoch-\(oldEpoch)")
            result.epoch = try layout.startNextEpoch(peer: configuration.peer, device: configuration.sandbox.device)
            let files = layout.filesOfEpochs(before: result.epoch)
            progress(0, files.count)
            for file in files {
                if result.deletedFiles == files.count / 2 { FaultInjection.crash(at: FaultInjection.midStartOver) }
                try? FileManager.default.removeItem(at: file)
                result.deletedFiles += 1
                if result.deletedFiles % 50 == 0 || result.deletedFiles == files.count {
                    progress(result.deletedFiles, files.count)
                }
            }
            for folder in layout.foldersOfEpochs(before: result.epoch) {
                try? FileManager.default.removeItem(at: folder)
            }
            return try openAfterSetup(account: account)
        }
        return result
    }

    /// A start over deletes the older epochs' files after it starts the new epoch; one cut short
    /// (the process killed, the machine turned off) leaves some behind, and files of an older
    /// epoch may still arrive late from a file-sync engine. The device that started the current
    /// epoch deletes them at its next start, and journals it (`contentRemoved`).
    ///
    /// - Returns: how many files it deleted.
    @discardableResult
    public func finishInterruptedStartOver() throws -> Int {
        guard let sync = current.sync, !current.isOffline else { return 0 }
        let layout = sync.layout
        let folders = layout.foldersOfEpochs(before: layout.epoch)
        guard !folders.isEmpty,
            layout.epochMarkers().valid.contains(where: { $0.epoch == layout.epoch && $0.peer == configuration.peer })
        else { return 0 }
        let files = layout.filesOfEpochs(before: layout.epoch)
        var deleted = 0
        for file in files where (try? FileManager.default.removeItem(at: file)) != nil { deleted += 1 }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        let change = StoreChange(transition: .contentRemoved, removed: [], added: [current.description])
        try record(
            change,
            detail:
                "finished the start over of epoch \(layout.epoch): \(deleted) file(s) of older epochs were left in the cloud folder (an interrupted start over, or files that arrived late) and are deleted now"
        )
        return deleted
    }
}
