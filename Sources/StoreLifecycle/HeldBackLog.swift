import Foundation
import Ubiquity

/// A refused log that holds its device's later logs back, as it is shown before the user skips
/// it: which log, and what skipping it loses on this device.
public struct HeldBackLog: Equatable, Sendable {
    public var peer: String
    /// The log's sequence number.
    public var seq: Int64
    /// The writing device's name, when the log's header could be read.
    public var device: String?
    /// "log 17 from device "phone" (peer 1b2c…): item name: it is blank".
    public var summary: String
    /// What skipping it loses on this device: the changes the log holds, as far as they can be read.
    public var contentSummary: String

    init(_ refusal: RefusedFile, _ sync: CloudSync) {
        peer = refusal.peer
        seq = refusal.seq
        device = refusal.device
        summary = refusal.summary
        contentSummary = sync.contentSummary(of: refusal)
    }
}
