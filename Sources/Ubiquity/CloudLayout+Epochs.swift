import Foundation

/// Epochs: starting over. A peer that starts over writes the marker of the next epoch,
/// `<cloud>/<account>/<store>/epochs/<n>.gdepoch`, and deletes the older epochs' folders. Every
/// peer reads and writes only the epoch of its store; one that finds a newer marker moves its
/// store aside and continues on an empty store of the new epoch (`contentRemoved`), so that
/// nothing of the old epoch comes back, even from a peer that was offline meanwhile.
extension CloudLayout {
    public static let epochMarkerExtension = "gdepoch"

    public var epochsFolder: URL { storeFolder.appendingPathComponent("epochs", isDirectory: true) }

    /// The same place in another epoch.
    public func inEpoch(_ epoch: Int) throws -> CloudLayout {
        try CloudLayout(cloud: cloud, account: account, storeName: storeName, modelVersion: modelVersion, epoch: epoch)
    }

    /// The newest epoch any peer started; 1 until someone starts over. Markers are only ever
    /// added, so the answer never goes back.
    public func currentEpoch() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: epochsFolder.path)) ?? []
        return names.compactMap(Self.epoch(ofMarkerNamed:)).reduce(1, max)
    }

    /// Whether a peer started over after this layout's epoch began. One `stat`: cheap enough to
    /// ask before every export.
    public var isSuperseded: Bool {
        FileManager.default.fileExists(atPath: markerURL(epoch: epoch + 1).path) || currentEpoch() > epoch
    }

    func markerURL(epoch: Int) -> URL {
        epochsFolder.appendingPathComponent("\(epoch).\(Self.epochMarkerExtension)")
    }

    static func epoch(ofMarkerNamed name: String) -> Int? {
        guard name.hasSuffix("." + epochMarkerExtension) else { return nil }
        let stem = name.dropLast(epochMarkerExtension.count + 1)
        guard !stem.isEmpty, stem.count <= 9, stem.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(stem)
    }

    /// Starts the epoch after the current one: writes its marker, saying who started it.
    ///
    /// - Returns: the new epoch.
    /// - Throws: ``CloudError/unreachable(_:)`` when the cloud folder is not there.
    public func startNextEpoch(peer: String, device: String, at date: Date = Date()) throws -> Int {
        let next = currentEpoch() + 1
        try makeFolder(epochsFolder)
        let text = "{\"device\":\(JSONText.quoted(device)),\"epoch\":\(next),\"peer\":\(JSONText.quoted(peer)),\"started\":\(JSONText.quoted(TransitionJournal.format(date)))}\n"
        try AtomicFile.write(Data(text.utf8), to: markerURL(epoch: next))
        return next
    }

    /// Every file of the epochs before `epoch`, in every model version's folder: what a start
    /// over deletes.
    public func filesOfEpochs(before epoch: Int) -> [URL] {
        var files: [URL] = []
        for folder in foldersOfEpochs(before: epoch) {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
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
