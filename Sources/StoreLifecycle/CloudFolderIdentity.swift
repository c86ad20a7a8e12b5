import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

/// Whether the folder at the cloud folder's path is the account's cloud folder this device synced
/// with, by the folder IDs its markers hold (``FolderMarker``). A device remembers the IDs in its
/// settings and in the account's cloud store, so that a damaged settings file loses nothing.
///
/// - A device that remembers IDs uses a folder that holds one of them; any other folder (an empty
///   mount point, another share, an older copy) is not its cloud folder: nothing is written into
///   it and the device works offline, saying why.
/// - A device that remembers none adopts the folder without a step when that cannot be wrong: it
///   is new to the account (its store published and applied nothing), or the folder holds the
///   history its store knows (a folder set up by a build before markers, see
///   ``CloudSync/folderHoldsKnownHistory()``). It writes its own marker (a new ID when the folder
///   has none) and remembers the IDs.
/// - ``adopt(_:account:)`` takes a folder on purpose (`cloud adopt`).
public enum CloudFolderIdentity {
    /// Store metadata: the folder IDs the device remembers for the store's account, a JSON array.
    static let metadataKey = "cloudFolderIDs"

    /// Why the folder is not the account's cloud folder for this device; `nil` when it is (then
    /// this device's marker is in it). Cheap when all is well: this device's own marker is read.
    static func problem(_ configuration: StoreConfiguration, account: String, settings: DeviceSettings) -> String? {
        let cloud = configuration.cloud
        var remembered = Set(settings.cloudFolderIDs[account] ?? [])
        let own = FolderMarker.ownID(cloud: cloud, account: account, peer: configuration.peer)
        if let own, remembered.contains(own) { return nil }
        var store = StoreFacts(configuration, account: account)
        if remembered.isEmpty { remembered = store.rememberedIDs }
        let present = FolderMarker.folderIDs(cloud: cloud, account: account)
        if !remembered.isEmpty {
            guard let id = present.intersection(remembered).sorted().first else {
                return notTheOne(
                    configuration,
                    because:
                        "it holds none of the folder IDs this device remembers for account \(account.debugDescription)")
            }
            // The folder is the one: this device's marker joins the others, and the settings learn
            // what the store remembered and every ID the folder holds (its own marker's included,
            // so the next look is the quick one).
            do {
                try remember(remembered.union(present), configuration, account: account, marker: own == nil ? id : nil)
            } catch {
                configuration.logger.warning("cannot write this device's folder marker: \(ErrorText.reason(error))")
            }
            return nil
        }
        if store.holdsKnownHistory == false {
            return notTheOne(
                configuration,
                because:
                    "it has no folder ID, and none of the logs this device published or applied for account \(account.debugDescription)"
            )
        }
        do {
            try adoptWithoutAsking(present, own: own, configuration, account: account)
            return nil
        } catch {
            return
                "the cloud folder \(cloud.path) cannot be marked as this account's (\(ErrorText.reason(error))); until it can, this device works offline and keeps its changes"
        }
    }

    /// Makes the folder at the cloud folder's path the account's cloud folder for this device,
    /// whatever IDs it remembered: it forgets them, takes the folder's (a new one when it has
    /// none) and writes its marker. The caller republishes the device's data (a baseline).
    ///
    /// - Throws: ``CloudError/unreachable(_:)`` when there is no folder at the path.
    public static func adopt(_ configuration: StoreConfiguration, account: String) throws {
        let cloud = configuration.cloud
        let present = FolderMarker.folderIDs(cloud: cloud, account: account)
        let own = FolderMarker.ownID(cloud: cloud, account: account, peer: configuration.peer)
        try adoptWithoutAsking(present, own: own, configuration, account: account, forgetting: true)
    }

    private static func adoptWithoutAsking(
        _ present: Set<String>, own: String?, _ configuration: StoreConfiguration,
        account: String, forgetting: Bool = false
    ) throws {
        guard CloudLayout.isReachable(configuration.cloud) else {
            throw CloudError.unreachable(configuration.cloud.path)
        }
        let id = own ?? present.sorted().first ?? FolderMarker.newID()
        let written = try FolderMarker(folderID: id, peer: configuration.peer, device: configuration.sandbox.device)
            .write(cloud: configuration.cloud, account: account)
        try remember(present.union([written]), configuration, account: account, marker: nil, forgetting: forgetting)
        configuration.logger.notice(
            "the cloud folder \(configuration.cloud.path) is account \(account)'s (folder ID \(written))")
    }

    /// Remembers `ids` in the settings and in the account's cloud store (when it exists), and
    /// writes this device's marker with `marker` when given.
    private static func remember(
        _ ids: Set<String>, _ configuration: StoreConfiguration, account: String, marker: String?,
        forgetting: Bool = false
    ) throws {
        if let marker {
            try FolderMarker(folderID: marker, peer: configuration.peer, device: configuration.sandbox.device)
                .write(cloud: configuration.cloud, account: account)
        }
        var settings = try DeviceSettings.load(from: configuration.sandbox)
        let known = forgetting ? ids : ids.union(settings.cloudFolderIDs[account] ?? [])
        if Set(settings.cloudFolderIDs[account] ?? []) != known {
            settings.cloudFolderIDs[account] = known.sorted()
            try settings.save(to: configuration.sandbox)
        }
        let url = configuration.cloudStoreURL(account: account)
        guard StoreFiles.exists(url) else { return }  // the setup remembers them in the store it makes
        let store = try configuration.openStore(at: url)
        defer { try? store.close() }
        try rememberInStore(known, store)
    }

    /// Keeps the folder IDs the settings remember for the store's account in the store too.
    static func rememberInStore(_ ids: Set<String>, _ store: GroceryStore) throws {
        let text = String(decoding: try JSONEncoder().encode(ids.sorted()), as: UTF8.self)
        if try store.objects.metadata(metadataKey) != text { try store.objects.setMetadata(metadataKey, text) }
    }

    /// The IDs a store remembers.
    static func rememberedIDs(in store: GroceryStore) -> Set<String> {
        guard let text = try? store.objects.metadata(metadataKey),
            let ids = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        else { return [] }
        return Set(ids)
    }

    private static func notTheOne(_ configuration: StoreConfiguration, because reason: String) -> String {
        "the cloud folder \(configuration.cloud.path) is not the one this device synced with (is the share mounted?): \(reason); until it is, this device works offline and keeps its changes"
            + (configuration.advice.foreignFolder.map { " (\($0))" } ?? "")
    }

    /// What the account's cloud store on this device says, read once (it is opened only when
    /// the settings remember no folder ID: on a device's first look, or after an upgrade).
    private struct StoreFacts {
        let configuration: StoreConfiguration
        let account: String
        private var facts: (remembered: Set<String>, history: Bool?)?

        init(_ configuration: StoreConfiguration, account: String) {
            self.configuration = configuration
            self.account = account
        }

        var rememberedIDs: Set<String> { mutating get { read().remembered } }
        var holdsKnownHistory: Bool? { mutating get { read().history } }

        private mutating func read() -> (remembered: Set<String>, history: Bool?) {
            if let facts { return facts }
            let url = configuration.cloudStoreURL(account: account)
            var read: (Set<String>, Bool?) = ([], nil)
            if StoreFiles.exists(url), let store = try? configuration.openStore(at: url) {
                defer { try? store.close() }
                let epoch = (try? store.objects.metadata(CloudSetup.epochKey)).flatMap { $0.flatMap(Int.init) } ?? 1
                if let layout = try? configuration.layout(account: account, epoch: epoch) {
                    let sync = CloudSync(
                        store: store.objects, layout: layout, device: configuration.sandbox.device,
                        logger: configuration.logger)
                    let history: Bool?
                    do { history = try sync.folderHoldsKnownHistory() } catch { history = false }
                    read = (CloudFolderIdentity.rememberedIDs(in: store), history)
                }
            }
            facts = read
            return read
        }
    }
}
