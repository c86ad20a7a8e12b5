import Foundation

extension CloudLayout {
    /// A device that publishes this store's changes under another model version than this
    /// layout's, and not under this one: peers on different versions do not sync, by design,
    /// and this is how a device says so rather than stay silent.
    public struct DeviceOnOtherModel: Equatable, Sendable {
        public let peer: String
        /// The device's name, from its newest log there; `nil` when that does not read.
        public let device: String?
        public let modelVersion: Int
        /// When its newest log there was written to the folder (the file's time).
        public let lastSeen: Date?

        /// `device "laptop"` or `peer …`.
        public var name: String { device.map { "device \($0.debugDescription)" } ?? "peer \(peer)" }
    }

    /// The devices that publish under another model version of this store and have no log or
    /// baseline under this one (in its current epoch), by version and name. An older device's changes
    /// arrive once it updates (its store migrates and it publishes what it holds here); a newer
    /// one's are seen once this device updates.
    public func devicesOnOtherModelVersions() -> [DeviceOnOtherModel] {
        let versions = (folderEntries(storeFolder.path) ?? []).compactMap { name -> Int? in
            guard name.hasPrefix("v"), let number = Int(name.dropFirst()), number > 0, "v\(number)" == name else {
                return nil
            }
            return number == modelVersion ? nil : number
        }
        guard !versions.isEmpty, let here = try? inEpoch(currentEpoch()) else { return [] }
        // A device that updated published what it holds here as a baseline, maybe no log yet.
        let current = Set(here.peers()).union(here.baselineFiles().map(\.peer))
        var found: [DeviceOnOtherModel] = []
        for version in versions.sorted() {
            guard let other = try? inModelVersion(version), let layout = try? other.inEpoch(other.currentEpoch())
            else { continue }
            for peer in layout.peers() where !current.contains(peer) {
                guard let newest = layout.sequenceNumbers(of: peer).last else { continue }
                let url = layout.logURL(peer: peer, seq: newest)
                // Its header alone: a log may be large, and this only names its writer.
                let device = try? EnvelopeFile.header(
                    at: url, magics: [LogFile.magic], expecting: layout, peer: peer, seq: newest
                ).header.device
                let seen = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
                found.append(DeviceOnOtherModel(peer: peer, device: device, modelVersion: version, lastSeen: seen))
            }
        }
        // A device that went through several versions is named once, at its newest.
        var named: [String: DeviceOnOtherModel] = [:]
        for device in found where (named[device.peer]?.modelVersion ?? 0) < device.modelVersion {
            named[device.peer] = device
        }
        return named.values.sorted { ($0.modelVersion, $0.name) < ($1.modelVersion, $1.name) }
    }
}
