import Foundation
import GroceryModel
import Ubiquity

/// The state of cloud sync on a device: what `cloud status` prints and the Cloud screen shows.
public struct CloudStatus: Equatable, Sendable {
    /// The "Enable cloud sync" setting.
    public var enabled: Bool
    public var account: String?
    public var device: String
    public var peerID: String
    public var storeName: String
    public var modelVersion: Int
    public var role: StoreDescription.Role
    /// "the cloud store of account …", as the transitions name stores.
    public var store: String
    /// "Using local storage: 1" on the local and fallback stores.
    public var usingLocalStorage: Bool
    /// The rest only when the device uses an account's store.
    public var cloud: Cloud?
    /// Most recent first.
    public var transitions: [TransitionJournal.Entry]

    public struct Cloud: Equatable, Sendable {
        public var offline: Bool
        /// Why it is offline: `cloud offline`, or the folder cannot be reached.
        public var offlineReason: String?
        public var folder: String
        public var epoch: Int
        /// Logs waiting to be written to the cloud folder, and waiting to be read from it.
        public var pendingExport: Int
        /// Saves waiting in every list of the account on this device, this one's included.
        public var pendingExportAllLists: Int = 0
        public var pendingImport: Int
        public var lastSync: Date?
        /// Files of the cloud folder refused: a refused log holds its peer's later logs back.
        public var refused: [RefusedCloudFile] = []
        /// The last `cloud verify` of this store: which devices agreed, which diverged.
        public var lastVerify: LastVerify? = nil
        /// Devices whose clocks were found more than a day ahead of this one's, furthest first.
        public var clocksAhead: [ClockAheadNote] = []
    }
}

extension StoreCoordinator {
    /// Reads the device's cloud sync state. It lists the cloud folder's logs to count what
    /// waits: fine for a command or a screen refreshed every second, not for every frame.
    public func status() throws -> CloudStatus {
        let settings = try DeviceSettings.load(from: configuration.sandbox)
        let store = current.store
        var status = CloudStatus(
            enabled: settings.cloudEnabled, account: settings.account, device: configuration.sandbox.device,
            peerID: store.objects.peer, storeName: configuration.storeName, modelVersion: store.modelVersion,
            role: current.role, store: current.description.description, usingLocalStorage: current.usingLocalStorage,
            transitions: transitions)
        guard let account = current.account else { return status }
        let sync = current.sync
        let layout = try sync?.layout ?? configuration.layout(account: account)
        let problem = configuration.folderProblem(settings)?.reason
        let offline = settings.offline || problem != nil
        // On the fallback store, its saves wait to move into the cloud store, and every log in
        // the cloud folder waits for the one-time setup.
        status.cloud = CloudStatus.Cloud(
            offline: offline,
            offlineReason: problem ?? (settings.offline ? "cloud offline" : nil),
            folder: layout.cloud.path, epoch: layout.epoch,
            pendingExport: try sync?.pendingExports() ?? store.objects.outbox().count,
            pendingImport: try sync?.pendingImports() ?? layout.inEpoch(layout.currentEpoch()).presentLogCount(),
            lastSync: try sync?.lastSync() ?? store.objects.metadata("lastSync").flatMap(Double.init).map { Date(timeIntervalSince1970: $0) },
            refused: try sync?.refusedFiles().map(RefusedCloudFile.init) ?? [],
            lastVerify: try sync?.lastVerify().map(LastVerify.init),
            clocksAhead: try sync?.clocksAhead().map(ClockAheadNote.init) ?? [])
        let waitingHere = status.cloud?.pendingExport ?? 0
        status.cloud?.pendingExportAllLists = waitingHere + waitingInOtherLists(account: account)
        return status
    }

    /// Saves waiting in the account's other lists' stores on this device (read, not opened).
    private func waitingInOtherLists(account: String) -> Int {
        let here = configuration.cloudStoreURL(account: account).deletingLastPathComponent()
        let folder = here.deletingLastPathComponent()
        let lists = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return lists.map { folder.appendingPathComponent($0, isDirectory: true) }
            .filter { $0.standardizedFileURL.path != here.standardizedFileURL.path }
            .flatMap { [$0.appendingPathComponent("store.sqlite"), $0.appendingPathComponent("fallback.sqlite")] }
            .compactMap(SQLiteFile.waitingSaves(in:))
            .reduce(0, +)
    }
}
