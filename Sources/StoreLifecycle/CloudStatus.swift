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
    /// Stores kept aside on this device (a start over, a rebuild, a disable), newest first:
    /// data nothing shows until it is merged back.
    public var kept: [KeptStore] = []

    /// A store kept aside: its file, why and when it was kept, how many items it holds.
    public struct KeptStore: Equatable, Sendable {
        public var path: String
        /// "epoch-1", "rebuild", "disabled": what kept it.
        public var label: String
        public var kept: Date
        /// `nil` when it cannot be read.
        public var items: Int?

        public var fileName: String { (path as NSString).lastPathComponent }
    }

    public struct Cloud: Equatable, Sendable {
        public var offline: Bool
        /// The user set the device offline (`cloud offline`, `o` on the Cloud screen): the
        /// command line and the screen each say how to undo it.
        public var setOffline = false
        /// Why the cloud folder cannot be used, when it cannot.
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
        /// Devices on another model version of the store, which do not sync with this one until
        /// the older side updates.
        public var otherModels: [OtherModelNote] = []
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
        status.kept = keptStores()
        guard let account = current.account else { return status }
        let sync = current.sync
        let layout = try sync?.layout ?? configuration.layout(account: account)
        let problem = configuration.folderProblem(settings)?.reason
        let offline = settings.offline || problem != nil
        // On the fallback store, its saves wait to move into the cloud store, and every log in
        // the cloud folder waits for the one-time setup.
        status.cloud = CloudStatus.Cloud(
            offline: offline, setOffline: settings.offline, offlineReason: problem,
            folder: layout.cloud.path, epoch: layout.epoch,
            pendingExport: try sync?.pendingExports() ?? store.objects.outbox().count,
            pendingImport: try sync?.pendingImports() ?? layout.inEpoch(layout.currentEpoch()).presentLogCount(),
            lastSync: try sync?.lastSync()
                ?? store.objects.metadata("lastSync").flatMap(Double.init).map { Date(timeIntervalSince1970: $0) },
            refused: try sync?.refusedFiles().map(RefusedCloudFile.init) ?? [],
            lastVerify: try sync?.lastVerify().map(LastVerify.init),
            clocksAhead: try sync?.clocksAhead().map(ClockAheadNote.init) ?? [])
        if problem == nil {
            // Claims and presence refused: each alone, holding nothing back.
            status.cloud?.refused += current.household?.read().refused ?? []
            status.cloud?.otherModels = layout.devicesOnOtherModelVersions().map {
                OtherModelNote($0, here: store.modelVersion)
            }
        }
        let waitingHere = status.cloud?.pendingExport ?? 0
        status.cloud?.pendingExportAllLists = waitingHere + waitingInOtherLists(account: account)
        return status
    }

    /// The stores kept aside for this list in the account the device works in (or its local
    /// data), newest first, with their item counts (read, not opened).
    public func keptStores() -> [CloudStatus.KeptStore] {
        // The account's (a start over, a rebuild, a disable of it) and the local store's.
        let account = current.account ?? (try? DeviceSettings.load(from: configuration.sandbox))?.account
        let folders = Set(([account].compactMap { $0 } + ["local"]).map(configuration.keptStoresFolder(account:)))
        let urls = folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
                $0.hasSuffix(".sqlite")
            }
            .map { folder.appendingPathComponent($0) }
        }
        return urls.map { url in
            let name = url.lastPathComponent
            let date =
                (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
                ?? Date.distantPast
            // "epoch-1-20261128T101500Z.sqlite": the label is what comes before the time.
            let stem = String(name.dropLast(".sqlite".count))
            let label =
                stem.range(of: #"-\d{8}T"#, options: .regularExpression).map { String(stem[..<$0.lowerBound]) } ?? stem
            return CloudStatus.KeptStore(
                path: url.path, label: label, kept: date, items: Self.keptItemCount(url, modified: date))
        }.sorted { $0.kept > $1.kept }
    }

    /// A kept store's item count, read once per version of the file: the Cloud screen asks for
    /// the status every second, and a kept store does not change.
    private static func keptItemCount(_ url: URL, modified: Date) -> Int? {
        if let known = keptCounts.withLock({ $0[url.path] }), known.modified == modified { return known.items }
        let items = SQLiteFile.rowCount(of: "item", in: url)
        keptCounts.withLock { $0[url.path] = (modified, items) }
        return items
    }

    private static let keptCounts = LockedCounts()

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

/// The kept stores' item counts already read, by path (``StoreCoordinator/keptStores()``).
final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: (modified: Date, items: Int?)] = [:]

    func withLock<T>(_ body: (inout [String: (modified: Date, items: Int?)]) -> T) -> T {
        lock.withLock { body(&counts) }
    }
}
