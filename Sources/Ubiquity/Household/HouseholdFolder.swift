import Foundation
import TextAndFiles

/// The folders of a store's household files: claims ("I'll get it") and presence ("who is
/// shopping where"), beside the store's own folder in the account's:
///
/// ```
/// <cloud>/<account>/<store name>.claims/<peer>/<n>.gdclaim
/// <cloud>/<account>/<store name>.presence/<peer>/<n>.gdpresence
/// ```
///
/// The folder's name holds a period, which no store name may (``CloudLayout/checkedStoreName(_:)``):
/// no list is ever taken for one. Each peer writes only in its own folder, files numbered from 1,
/// each created once (written like a marker, ``MarkerFile``: a magic line, one line of JSON, its
/// CRC-32) and never changed; a peer deletes only its own files. The files expire: nothing waits
/// on them, and a bad one is refused alone (``HouseholdFile``), never holding anything back.
public struct HouseholdFolder: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case claims, presence

        var fileExtension: String { self == .claims ? "gdclaim" : "gdpresence" }
        var magic: String { self == .claims ? "GDCLAIM 1" : "GDPRESENCE 1" }
        /// The kind of file, in messages: "claim", "presence".
        public var fileKind: String { self == .claims ? "claim" : "presence" }
    }

    public let cloud: URL
    public let account: String
    public let storeName: String
    public let kind: Kind

    /// - Throws: ``CloudError`` when the account or store name cannot be one.
    public init(cloud: URL, account: String, storeName: String, kind: Kind) throws {
        self.cloud = cloud
        self.account = try CloudLayout.checkedAccountName(account)
        self.storeName = try CloudLayout.checkedStoreName(storeName)
        self.kind = kind
    }

    /// `<cloud>/<account>/<store name>.<kind>`.
    public var folder: URL {
        CloudLayout.accountFolder(cloud: cloud, account: account).appendingPathComponent(
            "\(storeName).\(kind.rawValue)", isDirectory: true)
    }

    func peerFolder(_ peer: String) -> URL { folder.appendingPathComponent(peer, isDirectory: true) }

    /// A file's path relative to the cloud folder: how first sights and refusals are remembered.
    func relativePath(peer: String, number: Int64) -> String {
        "\(account)/\(storeName).\(kind.rawValue)/\(peer)/\(CloudLayout.numberedName(number, kind.fileExtension))"
    }

    /// Writes `body` as this peer's next file; the account's folder must be there already (it is
    /// made only with a device's folder marker).
    ///
    /// - Returns: the file's path relative to the cloud folder.
    /// - Throws: ``CloudError/unreachable(_:)`` when the cloud folder or the account's folder is
    ///   not there; the file system's errors.
    @discardableResult
    public func write(_ body: Data, peer: String) throws -> String {
        guard CloudLayout.isReachable(cloud),
            FileStamp.exists(CloudLayout.accountFolder(cloud: cloud, account: account))
        else { throw CloudError.unreachable(cloud.path) }
        let own = peerFolder(peer)
        try FileManager.default.createFolder(at: own)
        let data = MarkerFile.seal(body, magic: kind.magic)
        var number = (numberedEntries(own.path, extension: kind.fileExtension) ?? []).max() ?? 0
        // Another process of this device may take a number at the same moment: the next one then.
        for _ in 0..<16 {
            number += 1
            guard number <= CloudLayout.largestNumber else { break }
            if try AtomicFile.create(
                data, at: own.appendingPathComponent(CloudLayout.numberedName(number, kind.fileExtension)))
            {
                return relativePath(peer: peer, number: number)
            }
        }
        throw FileError.unwritable(path: own.path, reason: "no free file number")
    }

    /// Deletes this peer's own files that `isDone` says are superseded or expired. Other peers'
    /// files are never touched.
    public func removeOwn(peer: String, where isDone: (HouseholdFile) -> Bool) {
        for file in files(of: peer) where isDone(file) {
            unlink(cloud.appendingPathComponent(file.path).path)
        }
    }

    /// Every file of every peer named like one of this folder's, each read and checked as any file
    /// from the cloud folder (``HouseholdFile``). A missing folder holds none; one that cannot be
    /// listed is reported as a refused folder by the caller's reading of ``isListable``.
    public func files() -> [HouseholdFile] {
        (folderEntries(folder.path) ?? []).filter(HLC.isPeerName).sorted().flatMap(files(of:))
    }

    /// Whether the folder is missing (nothing written yet) or can be listed.
    public var isListable: Bool { !FileStamp.exists(folder) || folderEntries(folder.path) != nil }

    /// The files of one peer's folder, ascending by number.
    public func files(of peer: String) -> [HouseholdFile] {
        let peerFolder = peerFolder(peer)
        let numbers = (numberedEntries(peerFolder.path, extension: kind.fileExtension) ?? []).sorted()
        return numbers.map { number in
            let url = peerFolder.appendingPathComponent(CloudLayout.numberedName(number, kind.fileExtension))
            let stamp = FileStamp.of(url)
            var info = stat()
            let inode = lstat(url.path, &info) == 0 ? UInt64(info.st_ino) : 0
            let body = MarkerFile.body(of: url, magic: kind.magic)
            return HouseholdFile(
                kind: kind, path: relativePath(peer: peer, number: number), peer: peer, number: number,
                size: (try? stamp.get().size) ?? -1, modified: (try? stamp.get().modified) ?? 0, inode: inode,
                body: body)
        }
    }
}

/// One file of a household folder as found: where, whose, its stamp, and its JSON line or why it
/// cannot be one (not a regular file, over 4 KiB, no magic, a checksum that does not match).
public struct HouseholdFile: Sendable {
    public let kind: HouseholdFolder.Kind
    /// Relative to the cloud folder.
    public let path: String
    /// The peer whose folder holds it.
    public let peer: String
    public let number: Int64
    /// -1 when it is not a regular file.
    public let size: Int64
    public let modified: Double
    /// The file's inode: with its size, what tells a file seen before from a new one under the
    /// same name (times are not: a tool such as `faketime` shows them moved with the clock).
    public let inode: UInt64
    public let body: Result<Data, RuleViolation>
}

extension CloudLayout {
    /// `<10 digits>.<ext>`: the name of a numbered file (logs, baselines, digests, household files).
    static func numberedName(_ number: Int64, _ ext: String) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + "." + ext
    }

    /// The largest number a numbered file's name holds.
    static let largestNumber: Int64 = 9_999_999_999
}
