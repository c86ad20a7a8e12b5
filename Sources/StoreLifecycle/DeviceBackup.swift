import Foundation
import TextAndFiles
import Ubiquity

/// A copy of a device's folder that can be put back: every store in it copied with SQLite's
/// backup API (consistent while the app or another command writes), its identity, settings and
/// journal, and a manifest (`backup.json`) saying what it is.
///
/// Copying the folder with `cp` while the app runs can catch a store between its file and its
/// write-ahead log; this cannot. A device restored from it keeps its identity, so what it had
/// published to the cloud folder after the backup is its own past: its next sync imports it
/// back, and its new saves are numbered after it (nothing published is replaced).
public struct DeviceBackup: Sendable {
    /// What `backup.json` holds.
    public struct Manifest: Codable, Sendable, Equatable {
        public var format: String
        public var device: String
        public var created: Date
        /// The stores, as paths relative to the device's folder.
        public var stores: [String]
        public var files: [String]
    }

    public static let manifestName = "backup.json"
    static let format = "grocery-dude device backup 1"

    public let folder: URL
    public let manifest: Manifest

    // MARK: - Writing

    /// Writes a backup of the device in `sandbox` to `folder`, which must not exist yet.
    ///
    /// - Throws: ``DeviceBackupError`` when `folder` exists or the device has nothing to back up.
    @discardableResult
    public static func write(_ sandbox: DeviceSandbox, to folder: URL) throws -> DeviceBackup {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: folder.path) else { throw DeviceBackupError.exists(folder.path) }
        guard manager.fileExists(atPath: sandbox.root.appendingPathComponent("device.json").path) else {
            throw DeviceBackupError.nothingToBackUp(device: sandbox.device)
        }
        // Written beside the target and renamed at the end: a backup folder is whole or absent.
        let temp = folder.deletingLastPathComponent().appendingPathComponent(
            ".\(folder.lastPathComponent).\(UUID().uuidString).tmp")
        defer { try? manager.removeItem(at: temp) }
        try manager.createDirectory(at: temp, withIntermediateDirectories: true)
        var stores: [String] = []
        var files: [String] = []
        for relative in try contents(of: sandbox.root) {
            let source = sandbox.root.appendingPathComponent(relative)
            let target = temp.appendingPathComponent(relative)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if SQLiteFile.isDatabase(source) {
                try SQLiteFile.backup(source, to: target)
                stores.append(relative)
            } else {
                try manager.copyItem(at: source, to: target)
                files.append(relative)
            }
        }
        let manifest = Manifest(format: format, device: sandbox.device, created: Date(), stores: stores, files: files)
        try AtomicFile.write(try encoder.encode(manifest), to: temp.appendingPathComponent(manifestName))
        guard rename(temp.path, folder.path) == 0 else {
            throw DeviceBackupError.exists(folder.path)
        }
        return DeviceBackup(folder: folder, manifest: manifest)
    }

    /// The regular files of a device's folder worth keeping, as relative paths: not SQLite's
    /// `-wal` and `-shm` (a store's backup holds their content), locks, temporary files or links.
    static func contents(of root: URL) throws -> [String] {
        let manager = FileManager.default
        guard
            let walker = manager.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey])
        else {
            return []
        }
        var found: [String] = []
        let prefix = root.resolvingSymlinksInPath().path + "/"
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
            let name = url.lastPathComponent
            if name.hasSuffix("-wal") || name.hasSuffix("-shm") || name.hasSuffix(".tmp") || name.hasSuffix("-journal")
                || name.hasSuffix(".export-lock") || name == "device.lock"
            {
                continue
            }
            let path = url.resolvingSymlinksInPath().path
            guard path.hasPrefix(prefix) else { continue }
            found.append(String(path.dropFirst(prefix.count)))
        }
        return found.sorted()
    }

    // MARK: - Reading and restoring

    /// Opens the backup in `folder`, checking that it is whole: its manifest, every file it
    /// lists, every store sound.
    ///
    /// - Throws: ``DeviceBackupError`` saying what is wrong.
    public init(reading folder: URL) throws {
        let manifestURL = folder.appendingPathComponent(Self.manifestName)
        guard let data = try? Data(contentsOf: manifestURL) else { throw DeviceBackupError.notABackup(folder.path) }
        guard data.count < 1 << 20, let manifest = try? Self.decoder.decode(Manifest.self, from: data),
            manifest.format == Self.format
        else {
            throw DeviceBackupError.notABackup(folder.path)
        }
        for relative in manifest.stores + manifest.files {
            let components = relative.split(separator: "/")
            guard !relative.hasPrefix("/"), !components.contains(where: { $0 == ".." || $0 == "." }) else {
                throw DeviceBackupError.damaged(
                    folder.path, reason: "it names a file outside the device's folder: \(relative.debugDescription)")
            }
            let url = folder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else {
                throw DeviceBackupError.damaged(folder.path, reason: "\(relative) is missing")
            }
        }
        for relative in manifest.stores {
            if let problem = SQLiteFile.problem(in: folder.appendingPathComponent(relative)) {
                throw DeviceBackupError.damaged(folder.path, reason: "the store \(relative) is damaged: \(problem)")
            }
        }
        guard manifest.files.contains("device.json") else {
            throw DeviceBackupError.damaged(folder.path, reason: "the device's identity (device.json) is missing")
        }
        self.folder = folder
        self.manifest = manifest
    }

    private init(folder: URL, manifest: Manifest) {
        self.folder = folder
        self.manifest = manifest
    }

    /// Puts the backup in place of the device's folder. The folder as it was is moved aside,
    /// whole, to the returned place: nothing the device held is deleted. The caller holds the
    /// device (its ``DeviceLock``), so the app is not running on it.
    ///
    /// - Throws: ``DeviceBackupError/otherDevice(backup:device:)`` when the backup is another
    ///   device's (restoring it here would make two devices of one identity).
    public func restore(into sandbox: DeviceSandbox, now: Date = Date()) throws -> URL? {
        try check(for: sandbox)
        let manager = FileManager.default
        let devices = sandbox.root.deletingLastPathComponent()
        // The copy is made first, beside the device's folder, then swapped in by two renames.
        let staged = devices.appendingPathComponent(".\(sandbox.device).restoring-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: staged) }
        for relative in manifest.stores + manifest.files {
            let target = staged.appendingPathComponent(relative)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: folder.appendingPathComponent(relative), to: target)
        }
        var keptAside: URL?
        if manager.fileExists(atPath: sandbox.root.path), try !Self.holdsNothing(sandbox.root) {
            let stamp = Self.stampFormatter.string(from: now)
            let aside = devices.deletingLastPathComponent()
                .appendingPathComponent("replaced-devices", isDirectory: true)
                .appendingPathComponent("\(sandbox.device) \(stamp)", isDirectory: true)
            try manager.createDirectory(at: aside.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard rename(sandbox.root.path, aside.path) == 0 else {
                throw FileError.unwritable(path: sandbox.root.path, reason: String(cString: strerror(errno)))
            }
            keptAside = aside
        }
        if keptAside == nil { try? manager.removeItem(at: sandbox.root) }  // a folder made for this command
        guard rename(staged.path, sandbox.root.path) == 0 else {
            let reason = String(cString: strerror(errno))
            if let keptAside { _ = rename(keptAside.path, sandbox.root.path) }  // as it was
            throw FileError.unwritable(path: sandbox.root.path, reason: reason)
        }
        return keptAside
    }

    /// Throws ``DeviceBackupError/otherDevice(backup:device:)`` unless the backup is of the
    /// device in `sandbox`: restoring another device's would make two devices of one identity.
    public func check(for sandbox: DeviceSandbox) throws {
        guard manifest.device == sandbox.device else {
            throw DeviceBackupError.otherDevice(backup: manifest.device, device: sandbox.device)
        }
    }

    /// Whether a device's folder holds neither an identity nor a store (made by the command
    /// itself, on a machine where the device is new): nothing to keep.
    static func holdsNothing(_ root: URL) throws -> Bool {
        try !contents(of: root).contains {
            $0 == "device.json" || SQLiteFile.isDatabase(root.appendingPathComponent($0))
        }
    }

    // MARK: - Formats

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static let stampFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH.mm.ss"
        return formatter
    }()
}

/// Why a backup cannot be written or restored.
public enum DeviceBackupError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case exists(String)
    case nothingToBackUp(device: String)
    case notABackup(String)
    case damaged(String, reason: String)
    case otherDevice(backup: String, device: String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) exists already; name a new folder for the backup"
        case .nothingToBackUp(let device): "device \(device.debugDescription) has no data to back up yet"
        case .notABackup(let path): "\(path) is not a Grocery Dude device backup (no readable backup.json)"
        case .damaged(let path, let reason): "the backup \(path) cannot be restored: \(reason); nothing was changed"
        case .otherDevice(let backup, let device):
            "this is a backup of device \(backup.debugDescription), not of \(device.debugDescription): restore it with --device \(backup.debugDescription) (two devices must never share one identity)"
        }
    }

    public var errorDescription: String? { description }
}
