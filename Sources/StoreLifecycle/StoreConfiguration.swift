import Foundation
import GroceryModel
import Logging
import Synchronization
import TextAndFiles
import Ubiquity

/// Everything needed to open a device's stores: where they are, which model version, where the
/// cloud folder is, and who is asking.
public struct StoreConfiguration: Sendable {
    public var sandbox: DeviceSandbox
    public var cloud: URL
    public var storeName: String
    public var modelVersion: Int
    /// Whether a new local store starts with the default groceries.
    public var defaultData: Bool
    /// The device's peer ID.
    public var peer: String
    /// Who performs transitions, for the journal: "tui", "item add", …
    public var process: String
    public var logger: Logger
    /// Whether the cloud folder is the default one, which the app may create when cloud sync is
    /// turned on; a folder named by the user must exist (a missing mount point means offline,
    /// and must not be filled in its absence).
    public var mayCreateCloudFolder = false
    /// Who is told the notes and warnings a person running a command wants (besides the log
    /// file): the command line shows them; nil (the full-screen app) tells nobody.
    public var onNotice: (@Sendable (Notice) -> Void)?
    /// The commands some notices and reasons end with, as the program running the device words
    /// them (none by default).
    public var advice = DeviceAdvice()
    /// Whether saves are published to the cloud folder on a queue of their own rather than on
    /// the saving thread: for the app, whose UI thread must never wait on a slow cloud folder.
    public var exportsInBackground = false
    /// Whether the process does one command and quits: its stores are then held open by one
    /// connection each, and opening them writes nothing. The app and `cloud watch`, which live
    /// on and read while they write, keep a pool of connections (`StoreConnections`).
    public var runsOneCommand = false
    /// The person a command names (`GROCERY_DUDE_PERSON`), over the device's own (`person set`).
    public var personOverride: String?
    /// Whether bringing this store up to date carries what lists merged into it gained on this
    /// device (``ListMerge``): not while opening a merged-away list's copy to carry it.
    var carriesMergedLists = true

    /// Tells ``onNotice``, when someone listens.
    func tell(_ notice: Notice) {
        onNotice?(notice)
    }

    /// Tells ``onNotice`` unless this process told the same already: a command says it once.
    func tellOnce(_ notice: Notice) {
        if Self.told.withLock({ $0.insert(notice.description).inserted }) { tell(notice) }
    }

    private static let told = Mutex<Set<String>>([])

    public init(
        sandbox: DeviceSandbox, cloud: URL, storeName: String = GroceryStore.defaultStoreName,
        modelVersion: Int = GrocerySchema.currentVersion, defaultData: Bool = true, peer: String,
        process: String, logger: Logger = .silent
    ) {
        self.sandbox = sandbox
        self.cloud = cloud
        self.storeName = storeName
        self.modelVersion = modelVersion
        self.defaultData = defaultData
        self.peer = peer
        self.process = process
        self.logger = logger
    }

    /// Creates the default cloud folder when it is missing (see ``mayCreateCloudFolder``).
    public func createCloudFolderIfAllowed() {
        guard mayCreateCloudFolder else { return }
        try? FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    }

    /// Opens (creating when missing) a store file of this device at its model version.
    /// Its own saves are recorded in its history under this device and its person.
    public func openStore(at url: URL, defaultData: Bool = false) throws -> GroceryStore {
        let store = try GroceryStore(
            path: url.path, modelVersion: modelVersion, defaultData: defaultData, peer: peer, logger: logger,
            connections: runsOneCommand ? .single : .pooled)
        let person = person().name
        store.objects.historyAuthor.withLock { $0 = (sandbox.device, person) }
        return store
    }

    // MARK: - Where the stores are

    /// `local/<store>.sqlite`: the device's own store, never synced.
    public var localStoreURL: URL { sandbox.localStoreURL(storeName: storeName) }

    /// `ubiquity/<account>/<store>/store.sqlite`: the account's cloud store on the device.
    public func cloudStoreURL(account: String) -> URL { sandbox.cloudStoreURL(account: account, storeName: storeName) }

    /// `ubiquity/<account>/<store>/fallback.sqlite`: used until the cloud store is set up.
    public func fallbackStoreURL(account: String) -> URL {
        cloudStoreURL(account: account).deletingLastPathComponent().appendingPathComponent("fallback.sqlite")
    }

    /// `ubiquity/<account>/<store>/kept/`: stores moved aside (content removed by a start over,
    /// a rebuild), never deleted by the app.
    public func keptStoresFolder(account: String) -> URL {
        cloudStoreURL(account: account).deletingLastPathComponent().appendingPathComponent("kept", isDirectory: true)
    }

    /// The account's place in the cloud folder at `epoch`.
    public func layout(account: String, epoch: Int = 1) throws -> CloudLayout {
        var layout = try CloudLayout(
            cloud: cloud, account: account, storeName: storeName, modelVersion: modelVersion, epoch: epoch)
        // The account's folder is made with this device's folder marker only (CloudFolderIdentity).
        layout.createsAccountFolder = false
        return layout
    }

    /// Whether the device works without the cloud now: `cloud offline`, or a cloud folder that
    /// cannot be used (``cloudFolderProblem``). Read fresh each time: another terminal may change it.
    public var isOffline: Bool { offlineError != nil }

    /// What refuses work that needs the cloud folder now, `nil` when it can be used: the device
    /// was set offline, or the cloud folder cannot be used (why).
    var offlineError: StoreRemovalError? {
        let settings = (try? DeviceSettings.load(from: sandbox)) ?? DeviceSettings()
        return settings.offline ? .deviceOffline : folderProblem(settings).map { .offline($0.reason) }
    }

    /// Why the cloud folder cannot be used now, with what to do; `nil` when it can. It is missing,
    /// unreadable or not a folder; or, with cloud sync on, it is not the account's cloud folder
    /// this device synced with (``CloudFolderIdentity``: an empty mount point, another share).
    public var cloudFolderProblem: String? {
        folderProblem((try? DeviceSettings.load(from: sandbox)) ?? DeviceSettings())?.reason
    }

    /// What stands between the device and its cloud folder.
    struct FolderProblem {
        let reason: String
        /// A folder is there, but it is not the account's cloud folder (a share not mounted, so an
        /// empty mount point; another share): told to the user, where a missing one is plain offline.
        let isAnotherFolder: Bool
    }

    /// The cloud folder's problem under `settings`: checked for the account they are signed in
    /// to while cloud sync is on, or for `account` whatever they say (an account's one-time
    /// setup, which is only ever about its cloud).
    func folderProblem(_ settings: DeviceSettings, account: String? = nil) -> FolderProblem? {
        if let reason = CloudLayout.unreachableReason(cloud) {
            return FolderProblem(reason: reason, isAnotherFolder: false)
        }
        guard let account = account ?? (settings.cloudEnabled ? settings.account : nil),
            let reason = CloudFolderIdentity.problem(self, account: account, settings: settings)
        else { return nil }
        return FolderProblem(reason: reason, isAnotherFolder: true)
    }

    /// The store a choice of settings leads to (an account's cloud store, even while its
    /// fallback stands in).
    public func describe(_ choice: StoreChoice) -> StoreDescription {
        switch choice {
        case .local: StoreDescription(role: .local, account: nil, path: localStoreURL.path)
        case .cloud(let account):
            StoreDescription(role: .cloud, account: account, path: cloudStoreURL(account: account).path)
        }
    }
}
