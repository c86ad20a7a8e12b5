import Foundation
import Ubiquity

/// A file of the cloud folder this device refused, and why: what `cloud status` lists and the
/// Cloud screen shows.
public struct RefusedCloudFile: Equatable, Sendable {
    /// "log", "baseline", "marker", "blob", or "folder" (one that cannot be listed).
    public var kind: String
    /// Relative to the cloud folder.
    public var path: String
    /// The peer whose folder holds it.
    public var peer: String
    /// The log's sequence number, the baseline's number, the marker's epoch.
    public var seq: Int64
    /// The writing device's name, when the header could be read.
    public var device: String?
    public var reason: String
    /// "log 17 from device "phone" (peer 1b2c…): item name: it is blank".
    public var summary: String
    /// Whether it holds its device's later logs back: a refused log does, nothing else.
    public var holdsDeviceBack: Bool

    init(_ file: RefusedFile) {
        kind = file.kind.rawValue
        path = file.path
        peer = file.peer
        seq = file.seq
        device = file.device
        reason = file.reason
        summary = file.summary
        holdsDeviceBack = file.kind == .log
    }
}
