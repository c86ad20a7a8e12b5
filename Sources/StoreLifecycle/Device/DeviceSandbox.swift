import Foundation
import TextAndFiles
import Ubiquity

/// One device's folder under the data directory: its stores, its identity, its log.
///
/// ```
/// <data-dir>/devices/<device>/
///     device.json                 the device's peer ID
///     device.lock                 held by the running app (see DeviceLock)
///     settings.json               account, cloud sync, the cloud folder's IDs (DeviceSettings)
///     transitions.jsonl           every store transition (TransitionJournal)
///     local/<store name>.sqlite   the local, non-cloud store
///     ubiquity/<account>/<store name>/store.sqlite   an account's cloud store
///     grocery-dude.log
///
/// A damaged settings or identity file is kept aside beside it (`….damaged-<time>-<pid>`) and
/// rebuilt from the stores (see `DeviceSandbox+Recovery`).
/// ```
public struct DeviceSandbox: Sendable {
    public let device: String
    public let root: URL

    /// The longest device name accepted, in characters and in bytes of UTF-8 (once normalized).
    public static let maximumNameLength = 64
    public static let maximumNameBytes = 128

    /// Checks a device name and locates its sandbox under `dataDirectory`. The name is kept in
    /// NFC: typed in either Unicode form, it is one device (see ``PathName``).
    ///
    /// - Throws: ``SandboxError/invalidDeviceName(_:reason:)`` for a name that is empty, too long,
    ///   holds a `/`, a control character, or starts with a period.
    public init(dataDirectory: URL, device: String) throws {
        let name = PathName.normalized(device)
        if let reason = Self.problem(withName: name) { throw SandboxError.invalidDeviceName(device, reason: reason) }
        self.device = name
        self.root = PathName.url(
            of: name, in: dataDirectory.appendingPathComponent("devices", isDirectory: true), isDirectory: true)
    }

    static func problem(withName name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.count > maximumNameLength { return "it is longer than \(maximumNameLength) characters" }
        // It becomes a folder's name: file systems count bytes (255 at most), not characters.
        if name.utf8.count > maximumNameBytes {
            return "it is \(name.utf8.count) bytes long in UTF-8; the limit is \(maximumNameBytes)"
        }
        // Bytes, not characters: "/" followed by a combining accent is one character, and still a slash.
        if name.utf8.contains(UInt8(ascii: "/")) { return "it contains a /" }
        if name.utf8.first == UInt8(ascii: ".") { return "it starts with a period" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "it contains a control character"
        }
        return nil
    }

    public var localStoreDirectory: URL { root.appendingPathComponent("local", isDirectory: true) }
    public func localStoreURL(storeName: String) -> URL {
        PathName.url(of: storeName, suffix: ".sqlite", in: localStoreDirectory, isDirectory: false)
    }
    public var logFileURL: URL { root.appendingPathComponent("grocery-dude.log") }
    public var lockFileURL: URL { root.appendingPathComponent("device.lock") }
    public var identityFileURL: URL { root.appendingPathComponent("device.json") }

    /// Creates the sandbox's folders when missing.
    ///
    /// - Throws: ``FileError/unwritable(path:reason:)`` when they cannot be created or
    ///   written to.
    public func prepare() throws {
        let manager = FileManager.default
        for directory in [root, localStoreDirectory] {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw FileError.unwritable(path: directory.path, reason: ErrorText.reason(error))
            }
            guard manager.isWritableFile(atPath: directory.path) else {
                throw FileError.unwritable(path: directory.path, reason: "permission denied")
            }
        }
    }

    /// The device's peer ID (lowercase UUID text), made on first use and kept in `device.json`:
    /// what its store's clock readings end with (`GroceryStore(peer:)`) and what `account`
    /// and `cloud status` show.
    public func peerID() throws -> String {
        try peerID(ids: RandomIDGenerator()).description
    }

    /// The device's peer ID, new ones taken from `ids`. Processes that start at once on a new
    /// device all get the same one: the first to make the file wins, the others read it.
    package func peerID(ids: any IDGenerator) throws -> GlobalID {
        struct Identity: Codable { var peerID: GlobalID }
        func stored() -> GlobalID? {
            guard let data = try? Data(contentsOf: identityFileURL) else { return nil }
            return Self.writtenPeerID(data) ?? (try? JSONDecoder().decode(Identity.self, from: data))?.peerID
        }
        if let peerID = stored() { return peerID }
        let identity = Identity(peerID: ids.next())
        let data = try JSONEncoder().encode(identity)
        if try AtomicFile.create(data, at: identityFileURL) { return identity.peerID }
        if let peerID = stored() { return peerID }
        // The file there is damaged: it is kept aside, and the device takes back the ID its
        // stores saved under — a new one would make its published logs another device's. Only
        // a device whose stores never saved gets a new one.
        let recovered = Identity(peerID: peerIDFromStores() ?? identity.peerID)
        if let damaged = try? Data(contentsOf: identityFileURL) { _ = try keepCopy(of: damaged, for: identityFileURL) }
        try AtomicFile.write(try JSONEncoder().encode(recovered), to: identityFileURL)
        return recovered.peerID
    }

    /// The peer ID of a `device.json` exactly as this program writes it, `{"peerID":"<UUID>"}`;
    /// `nil` for anything else (spaces, a former ID, damage), which `JSONDecoder` then reads.
    /// What it accepts `JSONDecoder` reads to the same ID (the text holds no quote or escape: a
    /// UUID's); reading it by hand spares every command `JSONDecoder`'s first use (about 1 % of
    /// `item list`'s instructions).
    static func writtenPeerID(_ data: Data) -> GlobalID? {
        let prefix = Array(#"{"peerID":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        guard data.count == prefix.count + 36 + suffix.count, data.starts(with: prefix),
            data.suffix(2).elementsEqual(suffix)
        else { return nil }
        return GlobalID(String(decoding: data.dropFirst(prefix.count).prefix(36), as: UTF8.self))
    }

    /// Gives the device a new peer ID, for a copy of its folder that finds another copy in use
    /// under the same identity. The former ID is kept in `device.json` for the record.
    ///
    /// - Returns: the new ID, or nil when another process of this copy renewed it already.
    @discardableResult
    func renewPeerID(replacing former: String, ids: any IDGenerator = RandomIDGenerator()) throws -> GlobalID? {
        struct Identity: Codable {
            var peerID: GlobalID
            var formerPeerIDs: [String]?
        }
        let current = (try? JSONDecoder().decode(Identity.self, from: Data(contentsOf: identityFileURL)))
        // Another process of this copy renewed it already: that one holds.
        if let current, current.peerID.description != former { return nil }
        let renewed = Identity(peerID: ids.next(), formerPeerIDs: (current?.formerPeerIDs ?? []) + [former])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(renewed), to: identityFileURL)
        return renewed.peerID
    }

    /// Which copy of the device's folder this is: a hash of the machine (`/etc/machine-id`,
    /// else the host name) and the folder's path. A copy on another machine or at another
    /// path differs; the same folder restored in place does not. Names no path in the files.
    public var instance: String {
        let machine =
            (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ProcessInfo.processInfo.hostName
        let path = root.resolvingSymlinksInPath().standardizedFileURL.path
        return String(SHA256.hex(Array("\(machine)\n\(path)".utf8)).prefix(16))
    }

}
