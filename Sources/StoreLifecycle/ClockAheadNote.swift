import Foundation
import Ubiquity

/// A device whose clock was found more than a day ahead of this one's: one of its files said it
/// was written later than this device's clock then read. Its edits win over concurrent ones
/// until its clock is set right.
public struct ClockAheadNote: Equatable, Sendable {
    public var peer: String
    public var device: String?
    /// "log 3", "baseline 1".
    public var file: String
    /// When that device says it wrote the file.
    public var writtenAt: Date
    /// This device's clock when the file arrived.
    public var seenAt: Date
    /// How far ahead, in seconds.
    public var ahead: TimeInterval
    /// `device "phone" (peer …): its clock was about 10 years ahead of this device's (log 3 said …)`.
    public var summary: String

    init(_ clock: ClockAhead) {
        peer = clock.peer
        device = clock.device
        file = clock.file
        writtenAt = clock.writtenAt
        seenAt = clock.seenAt
        ahead = clock.ahead
        summary = clock.summary
    }
}
