import Foundation

extension CloudLayout {
    /// The devices that published in this epoch but wrote no folder marker (``FolderMarker``):
    /// they run a build from before markers, which reads only `<n>.gdepoch` start-over markers and
    /// would not see this build's `<n>-<peer>.gdepoch`. A start over waits until they are updated
    /// (their first command after the update writes their marker), unless told to go on.
    ///
    /// - Returns: "device "phone" (peer …)" for each, by peer ID; the device's name from its
    ///   newest log, when that reads.
    public func devicesOfEarlierBuilds() -> [String] {
        let markers = folderEntries(FolderMarker.folder(cloud: cloud, account: account).path) ?? []
        let marked = Set(
            markers.compactMap { name in
                name.hasSuffix("." + FolderMarker.fileExtension)
                    ? String(name.dropLast(FolderMarker.fileExtension.count + 1)) : nil
            })
        let published = Set(peers()).union(baselineFiles().map(\.peer)).filter(HLC.isPeerName)
        return published.subtracting(marked).sorted().map { peer in
            let newest = sequenceNumbers(of: peer).last
            // Its header alone: a log may be large, and this only names its writer.
            let device = newest.flatMap {
                try? EnvelopeFile.header(
                    at: logURL(peer: peer, seq: $0), magics: [LogFile.magic], expecting: self, peer: peer, seq: $0
                ).header.device
            }
            return device.map { "device \($0.debugDescription) (peer \(peer))" } ?? "peer \(peer)"
        }
    }
}
