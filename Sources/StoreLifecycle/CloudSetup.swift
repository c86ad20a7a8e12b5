import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

/// The one-time setup of an account's cloud store on a device: everything the cloud folder's
/// baselines and logs hold, at the cloud's current epoch. Until it is done the device runs on a
/// fallback store ("Using local storage: 1").
public enum CloudSetup {
    /// Store metadata: when the setup finished (Core Data's `initialImportCompleted`).
    static let completedKey = "initialImportCompleted"
    /// Store metadata: the epoch of the cloud's content the store holds.
    static let epochKey = "epoch"

    static func isComplete(_ store: GroceryStore) throws -> Bool {
        try store.objects.metadata(completedKey) != nil
    }

    /// Whether the account's cloud store on this device is set up; does not create it.
    public static func isComplete(_ configuration: StoreConfiguration, account: String) -> Bool {
        let url = configuration.cloudStoreURL(account: account)
        guard StoreFiles.exists(url),
            let store = try? configuration.openStore(at: url)
        else { return false }
        defer { try? store.close() }
        return (try? isComplete(store)) ?? false
    }

    /// Sets up the account's cloud store, or finishes a setup a crash or a lost connection
    /// interrupted: imports what is in the cloud folder now, then marks the store set up. Safe
    /// on any thread, in several processes at once, and any number of times (imports are
    /// exactly-once). A store begun at an epoch a peer has since removed is set aside first.
    ///
    /// - Returns: whether the store is set up; `false` when the device is offline.
    @discardableResult
    public static func run(_ configuration: StoreConfiguration, account: String) throws -> Bool {
        try run(configuration, account: account, onImport: { _ in })
    }

    /// The same, telling `onImport` what the setup's import found and did (a command's
    /// preparation counts it): the engine's report stays in this module.
    ///
    /// - Parameter url: where the store is; the account's cloud store unless given (a rebuild
    ///   sets a new store up beside it before it replaces it).
    static func run(
        _ configuration: StoreConfiguration, account: String, at url: URL? = nil,
        onImport: (ImportReport) -> Void
    ) throws -> Bool {
        let settings = (try? DeviceSettings.load(from: configuration.sandbox)) ?? DeviceSettings()
        guard !settings.offline, configuration.folderProblem(settings, account: account) == nil else { return false }
        let url = url ?? configuration.cloudStoreURL(account: account)
        try DeviceStore.makeParent(of: url)
        var store = try configuration.openStore(at: url)
        defer { try? store.close() }
        if try isComplete(store) { return true }

        let current = try configuration.layout(account: account).currentEpoch()
        // A store that says no epoch but was not made just now was used as epoch 1 (a command
        // saved into it while another process held the device): what it holds is epoch 1's.
        let held = try store.objects.metadata(epochKey).flatMap(Int.init) ?? (store.objects.isNew ? nil : 1)
        if let epoch = held, epoch < current {
            try store.close()
            let kept = try StoreFiles.setAside(
                url, into: configuration.keptStoresFolder(account: account), label: "epoch-\(epoch)")
            let detail = "a peer started over: the unfinished store of epoch \(epoch) is kept at \(kept.path)"
            configuration.logger.notice("\(detail)")
            try? TransitionJournal(sandbox: configuration.sandbox).record(
                StoreChange(
                    transition: .contentRemoved, removed: [configuration.describe(.cloud(account: account))],
                    added: [configuration.describe(.cloud(account: account))]),
                detail: detail, by: configuration.process)
            configuration.tell(Notice(.note, detail + (configuration.advice.keptStore.map { "; " + $0 } ?? "")))
            store = try configuration.openStore(at: url)
        }
        try store.objects.setMetadata(epochKey, String(current))
        let layout = try configuration.layout(account: account, epoch: current)
        let sync = CloudSync(
            store: store.objects, layout: layout, device: configuration.sandbox.device, logger: configuration.logger)
        let report = try sync.importPending()
        onImport(report)
        if configuration.defaultData { try seedDefaultDataOnce(into: store, configuration, account: account) }
        // The cloud folder's IDs (the check above remembered them in the settings) go with the store.
        let folderIDs = (try? DeviceSettings.load(from: configuration.sandbox))?.cloudFolderIDs[account] ?? []
        try CloudFolderIdentity.rememberInStore(Set(folderIDs), store)
        try store.objects.setMetadata(completedKey, Timestamp.string(Date()))
        configuration.logger.info(
            "one-time setup of the cloud store of account \(account) done: \(report.loadedBaselines) baseline(s), \(report.appliedLogs) log(s)"
        )
        return true
    }

    /// The data shipped with the app goes to an account's cloud once: the first device to set
    /// its cloud store up adds it and sets `SEEDED_DATA` in the synced key-value store; a device
    /// that finds the flag set adds nothing. Two devices setting up at the same moment may both
    /// add it: the same objects (shipped IDs and readings), so one set of them, with any edit
    /// or delete of them made meanwhile winning.
    ///
    /// A flag that cannot be written (the cloud folder full, or a file of a peer's where the
    /// key-value folder should be) is a warning, not a failed setup: the flag only spares later
    /// devices adding the same objects again, and a setup that failed on it would leave the
    /// device on its fallback store, its changes never exported.
    static func seedDefaultDataOnce(into store: GroceryStore, _ configuration: StoreConfiguration, account: String)
        throws
    {
        let values = KeyValueStore(
            cloud: configuration.cloud, account: account, peer: configuration.peer,
            format: StoreCoordinator.keyValueFormat, createsAccountFolder: false)
        let key = StoreCoordinator.seededDataKey(storeName: configuration.storeName)
        if let seeded = values.value(forKey: key) {
            configuration.logger.info(
                "default data already seeded to account \(account) (\(seeded)); not adding it again")
            return
        }
        let summary = try store.addDefaultData()
        configuration.logger.info("seeded the default data to account \(account): \(summary.description)")
        do {
            try values.set("\(configuration.sandbox.device) \(Timestamp.string(Date()))", forKey: key)
        } catch {
            let text =
                "the cloud folder does not say that the default data was added (\(ErrorText.reason(error))): a device set up later adds the same items again, as one set"
            configuration.logger.warning("\(text)")
            configuration.tell(Notice(.warning, text))
        }
    }

}
