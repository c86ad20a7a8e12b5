import Foundation
import TextAndFiles

/// Epochs: starting over. A peer that starts over writes the marker of the next epoch,
/// `<cloud>/<account>/<store>/epochs/<n>-<peer>.gdepoch` (a name of its own: two machines that
/// start over at the same moment write two files, never one name with two contents, which a sync
/// engine would turn into a conflict copy; both say epoch `n`, so every device computes the same
/// outcome), and deletes the older epochs' folders. Markers of earlier builds, `<n>.gdepoch`,
/// count the same. Every
/// peer reads and writes only the epoch of its store; one that finds a newer marker moves its
/// store aside and continues on an empty store of the new epoch (`contentRemoved`), so that
/// nothing of the old epoch comes back, even from a peer that was offline meanwhile.
extension CloudLayout {
    public static let epochMarkerExtension = "gdepoch"

    public var epochsFolder: URL { storeFolder.appendingPathComponent("epochs", isDirectory: true) }

    /// The same place in another epoch.
    public func inEpoch(_ epoch: Int) throws -> CloudLayout {
        try copy(modelVersion: modelVersion, epoch: epoch)
    }

    /// The same place in another model version's folder.
    func inModelVersion(_ modelVersion: Int) throws -> CloudLayout {
        try copy(modelVersion: modelVersion, epoch: epoch)
    }

    /// This layout at another model version and epoch, with its other settings.
    private func copy(modelVersion: Int, epoch: Int) throws -> CloudLayout {
        var layout = try CloudLayout(
            cloud: cloud, account: account, storeName: storeName, modelVersion: modelVersion, epoch: epoch)
        layout.createsAccountFolder = createsAccountFolder
        return layout
    }

    /// The newest epoch any peer started; 1 until someone starts over. Markers are only ever
    /// added, so the answer never goes back. Only markers that check out count (see
    /// ``EpochMarker``): an empty, damaged or foreign file, or a folder, named like a marker
    /// never starts anything over.
    public func currentEpoch() -> Int {
        epochMarkers().valid.map(\.epoch).reduce(1, max)
    }

    /// Whether a peer started over after this layout's epoch began. One listing of the epochs
    /// folder (usually missing: nobody started over), cheap enough to ask before every export;
    /// the markers are read only when one is named beyond this epoch.
    public var isSuperseded: Bool {
        guard let names = folderEntries(epochsFolder.path),
            names.contains(where: { (Self.epoch(ofMarkerNamed: $0) ?? 0) > epoch })
        else { return false }
        return currentEpoch() > epoch
    }

    func markerURL(epoch: Int, peer: String) -> URL {
        epochsFolder.appendingPathComponent("\(epoch)-\(peer).\(Self.epochMarkerExtension)")
    }

    static func epoch(ofMarkerNamed name: String) -> Int? {
        markerName(name)?.epoch
    }

    /// The epoch and, in this build's names, the peer a marker's name gives: `<n>.gdepoch`
    /// (earlier builds) or `<n>-<peer>.gdepoch`; `nil` for any other name.
    static func markerName(_ name: String) -> (epoch: Int, peer: String?)? {
        guard name.hasSuffix("." + epochMarkerExtension) else { return nil }
        let stem = name.dropLast(epochMarkerExtension.count + 1)
        let parts = stem.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let number = parts[0]
        guard !number.isEmpty, number.count <= 9, number.allSatisfy({ $0.isASCII && $0.isNumber }),
            let epoch = Int(number)
        else { return nil }
        guard parts.count == 2 else { return (epoch, nil) }
        let peer = String(parts[1])
        return HLC.isPeerName(peer) ? (epoch, peer) : nil
    }

    /// Every file named like a marker: those that check out, and the others with why.
    public func epochMarkers() -> (valid: [EpochMarker], refused: [(name: String, reason: String)]) {
        let names = folderEntries(epochsFolder.path) ?? []  // every import asks: no error object for a missing folder
        var valid: [EpochMarker] = []
        var refused: [(name: String, reason: String)] = []
        for name in names.sorted() {
            guard let (epoch, peer) = Self.markerName(name) else { continue }
            switch EpochMarker.read(epochsFolder.appendingPathComponent(name), epoch: epoch) {
            case .success(let marker) where peer == nil || marker.peer == peer: valid.append(marker)
            case .success(let marker): refused.append((name, "it says peer \(marker.peer), its name \(peer!)"))
            case .failure(let violation): refused.append((name, violation.reason))
            }
        }
        return (valid, refused)
    }

    /// Starts the epoch after the current one: writes its marker, saying who started it, under
    /// a name of this peer's own, created once.
    ///
    /// - Returns: the new epoch.
    /// - Throws: ``CloudError/unreachable(_:)`` when the cloud folder is not there.
    public func startNextEpoch(peer: String, device: String, at date: Date = Date()) throws -> Int {
        let next = currentEpoch() + 1
        try makeFolder(epochsFolder)
        let marker = EpochMarker(
            epoch: next, peer: peer, device: device, started: ISO8601DateFormatter.withFraction.string(from: date))
        // Created once: two processes of this device starting over at once write it once.
        _ = try AtomicFile.create(marker.fileData(), at: markerURL(epoch: next, peer: peer))
        return next
    }

    /// Every file of the epochs before `epoch`, in every model version's folder: what a start
    /// over deletes.
    public func filesOfEpochs(before epoch: Int) -> [URL] {
        var files: [URL] = []
        for folder in foldersOfEpochs(before: epoch) {
            guard
                let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            else { continue }
            for case let url as URL in walker
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                files.append(url)
            }
        }
        return files
    }

    /// The `v<n>/epoch-<m>` folders with `m < epoch`.
    public func foldersOfEpochs(before epoch: Int) -> [URL] {
        let manager = FileManager.default
        var folders: [URL] = []
        for version in (try? manager.contentsOfDirectory(atPath: storeFolder.path)) ?? [] where version.hasPrefix("v") {
            let versionFolder = storeFolder.appendingPathComponent(version, isDirectory: true)
            for name in (try? manager.contentsOfDirectory(atPath: versionFolder.path)) ?? [] {
                guard name.hasPrefix("epoch-"), let number = Int(name.dropFirst(6)), number < epoch else { continue }
                folders.append(versionFolder.appendingPathComponent(name, isDirectory: true))
            }
        }
        return folders.sorted { $0.path < $1.path }
    }
}

/// The file that starts an epoch, `epochs/<n>-<peer>.gdepoch` (`<n>.gdepoch` from earlier builds):
///
/// ```
/// GDEPOCH 1
/// {"device":"kitchen","epoch":2,"peer":"…","started":"2026-11-23T08:00:00.000Z"}
/// <CRC-32 of the JSON line, hex>
/// ```
/// It must say what it is: the magic line, the epoch its name gives, a plain peer name, a
/// device, a time, and a checksum that matches. Markers of earlier builds (the JSON line
/// alone) are read too, with the same checks but the checksum.
public struct EpochMarker: Codable, Equatable, Sendable {
    public var epoch: Int
    public var peer: String
    public var device: String
    public var started: String

    static let magic = "GDEPOCH 1"

    func fileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return MarkerFile.seal(try encoder.encode(self), magic: Self.magic)
    }

    static func read(_ url: URL, epoch: Int) -> Result<EpochMarker, RuleViolation> {
        let body: Data
        switch MarkerFile.body(of: url, magic: magic, bare: true) {  // earlier builds wrote the JSON line alone
        case .success(let data): body = data
        case .failure(let violation): return .failure(violation)
        }
        guard let marker = try? JSONDecoder().decode(EpochMarker.self, from: body) else {
            return .failure(RuleViolation("it is not an epoch marker"))
        }
        guard marker.epoch == epoch else {
            return .failure(RuleViolation("it says epoch \(marker.epoch), its name \(epoch)"))
        }
        guard HLC.isPeerName(marker.peer), !marker.device.isEmpty, marker.device.utf8.count <= 256,
            !marker.device.unicodeScalars.contains(where: ValueRule.isForbidden),
            (try? Date(marker.started, strategy: .iso8601)) != nil
                || ISO8601DateFormatter.withFraction.date(from: marker.started) != nil
        else { return .failure(RuleViolation("its peer, device or time cannot be right")) }
        return .success(marker)
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFraction: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
