import Foundation
import TextAndFiles

/// Where a store's files live in the cloud folder:
///
/// ```
/// <cloud>/<account>/<store name>/v<model version>/epoch-<epoch>/logs/<peer>/<seq>.gdlog
/// ```
///
/// Each peer writes only in its own folder; files are never changed once they appear. Model
/// versions and epochs are separate folders, so peers on different versions never see each
/// other's logs.
public struct CloudLayout: Sendable {
    public let cloud: URL
    public let account: String
    public let storeName: String
    public let modelVersion: Int
    public let epoch: Int
    /// Whether writing may create the account's folder (`<cloud>/<account>`). An app that marks
    /// the cloud folder's identity (``FolderMarker``) turns it off: the account's folder is then
    /// made only with this device's marker, so a round that looked at the folder before a share
    /// was unmounted never fills the bare mount point with the folders it writes into.
    public var createsAccountFolder = true

    public static let logExtension = "gdlog"

    /// The store's folder, `<cloud>/<account>/<store name>` (see ``PathName``): found when the
    /// cloud folder can be read, then kept. While it cannot (offline), the NFC path stands in,
    /// and nothing is written there; a process that comes back online then finds a folder an
    /// earlier build made in another form, instead of starting a second one beside it.
    public var storeFolder: URL { foundStoreFolder.url() }
    private let foundStoreFolder: FoundFolder

    /// - Throws: ``CloudError/invalidStoreName(_:)`` or ``CloudError/invalidAccountName(_:)``
    ///   (see ``checkedStoreName(_:)`` and ``checkedAccountName(_:)``). Both names are kept in
    ///   NFC.
    public init(cloud: URL, account: String, storeName: String, modelVersion: Int, epoch: Int = 1) throws {
        self.cloud = cloud
        self.storeName = try Self.checkedStoreName(storeName)
        self.account = try Self.checkedAccountName(account)
        self.modelVersion = modelVersion
        self.epoch = epoch
        foundStoreFolder = FoundFolder { [account = self.account, storeName = self.storeName] in
            let names = account + storeName
            guard names.isASCII || Self.isReachable(cloud) else {
                return (
                    cloud.appendingPathComponent(account, isDirectory: true).appendingPathComponent(
                        storeName, isDirectory: true), false
                )
            }
            return (
                PathName.url(of: storeName, in: Self.accountFolder(cloud: cloud, account: account), isDirectory: true),
                true
            )
        }
    }

    /// Whether the cloud folder is there and usable: a missing, unreadable or unmounted folder
    /// counts as offline. Its root is never created here — an unmounted mount point must not
    /// fill up with logs that belong on the share.
    public var isReachable: Bool { Self.isReachable(cloud) }

    /// Whether `cloud` is an existing folder this process may read and write.
    public static func isReachable(_ cloud: URL) -> Bool { unreachableReason(cloud) == nil }

    /// Why `cloud` cannot be used as the cloud folder, with what to do; nil when it can.
    public static func unreachableReason(_ cloud: URL) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: cloud.path, isDirectory: &isDirectory) else {
            return
                "the cloud folder \(cloud.path) does not exist: create it (mkdir -p \(cloud.path)) or mount the share it lives on"
        }
        guard isDirectory.boolValue else { return "the cloud folder \(cloud.path) is not a folder" }
        guard access(cloud.path, R_OK | W_OK | X_OK) == 0 else {
            return
                "the cloud folder \(cloud.path) cannot be read and written by this user (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// Creates a folder inside the cloud folder (never the cloud folder itself).
    ///
    /// - Throws: ``CloudError/unreachable(_:)`` when the cloud folder is not there;
    ///   `FileError.unwritable` naming the folder when it cannot be made (a peer's file in its way).
    ///   Without ``createsAccountFolder``, an account folder that is not there counts as the cloud
    ///   folder not being there.
    func makeFolder(_ url: URL) throws {
        guard isReachable else { throw CloudError.unreachable(cloud.path) }
        if !createsAccountFolder, !FileStamp.exists(Self.accountFolder(cloud: cloud, account: account)) {
            throw CloudError.unreachable(cloud.path)
        }
        try FileManager.default.createFolder(at: url)
    }

    /// The longest account or store name, in bytes of UTF-8 once normalized (``PathName``): both
    /// become names of folders and files (with suffixes such as `.sqlite-wal`), which file
    /// systems limit to 255 bytes.
    public static let maximumNameBytes = 128

    /// An account is a folder of the cloud folder: a non-empty name, no slash, no leading period,
    /// no control character, at most ``maximumNameBytes`` bytes.
    ///
    /// - Returns: the name in NFC, as it becomes a folder.
    public static func checkedAccountName(_ account: String) throws -> String {
        let name = PathName.normalized(account)
        // Bytes, not characters: "/" followed by a combining accent is one character, and still a slash.
        guard !name.isEmpty, name.utf8.first != UInt8(ascii: "."), !name.utf8.contains(UInt8(ascii: "/")),
            name.utf8.count <= maximumNameBytes,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CloudError.invalidAccountName(account)
        }
        return name
    }

    /// The folder of an account's synced key-value store, beside its stores: no store may take
    /// its name.
    public static let keyValueFolderName = "kv"

    /// A store name (the ubiquitous content name) as iCloud checked it: non-empty, no period, no
    /// slash, no leading `~`, no control character, at most ``maximumNameBytes`` bytes — and not
    /// the key-value store's folder (``keyValueFolderName``) nor the folder markers'
    /// (``FolderMarker/folderName``), in any case, which it would share.
    ///
    /// - Returns: the name in NFC, as it becomes folders and files.
    public static func checkedStoreName(_ storeName: String) throws -> String {
        let name = PathName.normalized(storeName)
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: ".")), !name.utf8.contains(UInt8(ascii: "/")),
            name.utf8.first != UInt8(ascii: "~"), name.utf8.count <= maximumNameBytes,
            name.lowercased() != keyValueFolderName, name.lowercased() != FolderMarker.folderName,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CloudError.invalidStoreName(storeName)
        }
        return name
    }

    /// `<cloud>/<account>`: the account's folder, which holds its stores and its key-value store.
    public static func accountFolder(cloud: URL, account: String) -> URL {
        PathName.url(of: account, in: cloud, isDirectory: true)
    }

    public var epochFolder: URL {
        storeFolder.appendingPathComponent("v\(modelVersion)", isDirectory: true)
            .appendingPathComponent("epoch-\(epoch)", isDirectory: true)
    }

    public var logsFolder: URL { epochFolder.appendingPathComponent("logs", isDirectory: true) }

    public func peerFolder(_ peer: String) -> URL { logsFolder.appendingPathComponent(peer, isDirectory: true) }

    public func logURL(peer: String, seq: Int64) -> URL {
        peerFolder(peer).appendingPathComponent(Self.logName(seq))
    }

    static func logName(_ seq: Int64) -> String {
        let digits = String(seq)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + "." + logExtension
    }

    /// The sequence number a log file's name gives, or `nil` for any other file: sync engines'
    /// temp and conflict copies (dotfiles, `~syncthing~…`, `….sync-conflict-…`, partial
    /// downloads) never match.
    static func seq(ofLogNamed name: String) -> Int64? {
        number(inFileNamed: name, extension: logExtension)
    }

    /// The number of a numbered file's name, `<10 digits>.<ext>` (logs, baselines, digests), or
    /// `nil` for any other name. Read from the name's bytes: an importer reads every name of a
    /// peer's folder at every round, and testing `Character`s for digits was a fifth of a
    /// follower's work while four peers saved 100 times a second.
    static func number(inFileNamed name: String, extension ext: String) -> Int64? {
        var name = name
        return name.withUTF8 { number(inFileNamed: $0, extension: ext) }
    }

    /// ``number(inFileNamed:extension:)`` of a name's UTF-8 bytes.
    static func number(inFileNamed bytes: UnsafeBufferPointer<UInt8>, extension ext: String) -> Int64? {
        guard bytes.count == 11 + ext.utf8.count, bytes[10] == UInt8(ascii: "."),
            ext.utf8.elementsEqual(bytes[11...])
        else { return nil }
        var number: Int64 = 0
        for byte in bytes[..<10] {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            number = number * 10 + Int64(digit)
        }
        return number
    }

    /// The peers with a folder of logs (this one included), sorted. Only plain peer names
    /// count (``HLC/isPeerName(_:)``): sync engines' temp and conflict folders, and anything
    /// else, are not peers.
    func peers() -> [String] {
        (folderEntries(logsFolder.path) ?? []).filter(HLC.isPeerName).sorted()
    }

    /// A file's path relative to the cloud folder: how refused files are remembered.
    func relativePath(_ url: URL) -> String {
        let root = cloud.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// How many logs of all peers are present now.
    public func presentLogCount() -> Int {
        peers().reduce(0) { $0 + sequenceNumbers(of: $1).count }
    }

    /// The sequence numbers of a peer's logs present now, ascending.
    func sequenceNumbers(of peer: String) -> [Int64] {
        (numberedEntries(peerFolder(peer).path, extension: Self.logExtension) ?? []).sorted()
    }
}

/// What the cloud side refuses.
public enum CloudError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidStoreName(String)
    case invalidAccountName(String)
    case unreachable(String)
    /// A peer started over: the store's epoch is no longer the cloud's.
    case contentRemoved(epoch: Int, current: Int)
    /// This device's own published log cannot be read back, so new saves cannot follow it.
    case ownLogUnreadable(seq: Int64)
    /// Another exporter of this device (process `pid`) has been writing to the cloud folder
    /// for a while: it publishes the waiting saves.
    case exportInProgress(pid: Int32, command: String)
    /// Another copy of this device's data folder published log `seq` under this identity.
    case sharedIdentity(seq: Int64, device: String)

    public var description: String {
        switch self {
        case .invalidStoreName(let name):
            "invalid store name \(name.debugDescription): it must be non-empty, without periods, slashes, control characters or a leading ~, at most \(CloudLayout.maximumNameBytes) bytes, and neither \(CloudLayout.keyValueFolderName) nor \(FolderMarker.folderName) (folders of the account's)"
        case .invalidAccountName(let name):
            "invalid account name \(name.debugDescription): it must be non-empty, without slashes, control characters or a leading period, at most \(CloudLayout.maximumNameBytes) bytes"
        case .unreachable(let path):
            (CloudLayout.unreachableReason(URL(fileURLWithPath: path)) ?? "the cloud folder \(path) cannot be used")
                + "; until it can, this device works offline and keeps its changes"
        case .ownLogUnreadable(let seq):
            "this device's own log \(seq) in the cloud folder cannot be read; its new saves wait until it can"
        case .exportInProgress(let pid, let command):
            "process \(pid) (\(command)) has been writing this device's logs to the cloud folder for over \(Int(ExportLock.patience)) seconds; it publishes this change too"
        case .sharedIdentity(let seq, let device):
            "another copy of this device's data folder (running as device \(device.debugDescription)) published log \(seq) under the same identity; this copy now has an identity of its own, and its changes are published under it by the next command"
        case .contentRemoved(let epoch, let current):
            "a peer started over: the cloud's content is now epoch \(current), this store holds epoch \(epoch)"
        }
    }

    public var errorDescription: String? { description }
}
