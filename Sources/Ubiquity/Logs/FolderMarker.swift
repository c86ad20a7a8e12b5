import Foundation
import TextAndFiles

/// The cloud folder's identity: an ID made once when an account's folder is first set up, which
/// every device that syncs through the folder remembers. Each device writes it in a marker of its
/// own, `<cloud>/<account>/folder-ids/<peer>.gdfolder`, once and never again, so no file has two
/// writers:
///
/// ```
/// GDFOLDER 1
/// {"device":"kitchen","folderID":"…","peer":"…","written":"2026-11-28T08:00:00Z"}
/// <CRC-32 of the JSON line, hex>
/// ```
///
/// A path that holds none of the IDs a device remembers — an empty mount point, another share, an
/// older copy — is not its cloud folder. The name has a period, so no store name (which has none)
/// can take it; it has no leading dot, so sync engines copy it (Syncthing's own `.stfolder` is
/// per machine and never synced).
public struct FolderMarker: Codable, Equatable, Sendable {
    public var folderID: String
    public var peer: String
    public var device: String
    public var written: String

    public static let folderName = "folder-ids"
    public static let fileExtension = "gdfolder"
    static let magic = "GDFOLDER 1"

    public init(folderID: String, peer: String, device: String, written: Date = Date()) {
        self.folderID = folderID
        self.peer = peer
        self.device = device
        self.written = ISO8601DateFormatter().string(from: written)
    }

    /// A new folder ID: a random UUID, lowercase.
    public static func newID() -> String { UUID().uuidString.lowercased() }

    /// `<cloud>/<account>/folder-ids`.
    public static func folder(cloud: URL, account: String) -> URL {
        CloudLayout.accountFolder(cloud: cloud, account: account).appendingPathComponent(folderName, isDirectory: true)
    }

    static func url(cloud: URL, account: String, peer: String) -> URL {
        folder(cloud: cloud, account: account).appendingPathComponent("\(peer).\(fileExtension)")
    }

    /// The ID this peer's own marker holds, when it has one that checks out and says it is
    /// this peer's (a file under its name written by anyone else counts for nothing).
    public static func ownID(cloud: URL, account: String, peer: String) -> String? {
        guard let marker = try? read(url(cloud: cloud, account: account, peer: peer)).get(), marker.peer == peer else {
            return nil
        }
        return marker.folderID
    }

    /// The IDs the markers in the folder hold, those that check out (a damaged or foreign file
    /// named like one counts for nothing).
    public static func folderIDs(cloud: URL, account: String) -> Set<String> {
        let folder = folder(cloud: cloud, account: account)
        var ids: Set<String> = []
        for name in folderEntries(folder.path) ?? [] where name.hasSuffix("." + fileExtension) {
            let peer = String(name.dropLast(fileExtension.count + 1))
            guard HLC.isPeerName(peer), let marker = try? read(folder.appendingPathComponent(name)).get(),
                marker.peer == peer
            else { continue }
            ids.insert(marker.folderID)
        }
        return ids
    }

    /// Writes this peer's marker, unless it has one already: the first written stays (a marker is
    /// never rewritten). Never creates the cloud folder itself.
    ///
    /// - Returns: the ID the peer's marker holds now (another process's, when it won the race).
    /// - Throws: ``CloudError/unreachable(_:)`` when the cloud folder is not there; the file
    ///   system's errors when the marker cannot be written.
    @discardableResult
    public func write(cloud: URL, account: String) throws -> String {
        guard CloudLayout.isReachable(cloud) else { throw CloudError.unreachable(cloud.path) }
        let url = Self.url(cloud: cloud, account: account, peer: peer)
        if let existing = Self.ownID(cloud: cloud, account: account, peer: peer) { return existing }
        try FileManager.default.createFolder(at: url.deletingLastPathComponent())
        if try AtomicFile.create(try fileData(), at: url) { return folderID }
        if let existing = Self.ownID(cloud: cloud, account: account, peer: peer) { return existing }
        // A damaged or foreign file holds the name: this peer's marker cannot be written under it.
        throw FileError.unwritable(
            path: url.path, reason: "a file that is not this device's folder marker holds its name")
    }

    func fileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return MarkerFile.seal(try encoder.encode(self), magic: Self.magic)
    }

    /// Reads a marker, checking it as any file of the cloud folder: bounded, magic, checksum,
    /// an ID that is a UUID, a plain peer name.
    static func read(_ url: URL) -> Result<FolderMarker, RuleViolation> {
        let body: Data
        switch MarkerFile.body(of: url, magic: magic) {
        case .success(let data): body = data
        case .failure(let violation): return .failure(violation)
        }
        guard let marker = try? JSONDecoder().decode(FolderMarker.self, from: body) else {
            return .failure(RuleViolation("it is not a folder marker"))
        }
        guard UUID(uuidString: marker.folderID) != nil, marker.folderID == marker.folderID.lowercased(),
            HLC.isPeerName(marker.peer), !marker.device.isEmpty, marker.device.utf8.count <= 256,
            !marker.device.unicodeScalars.contains(where: ValueRule.isForbidden)
        else { return .failure(RuleViolation("its ID, peer or device cannot be right")) }
        return .success(marker)
    }
}
