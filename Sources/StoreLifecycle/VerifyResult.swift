import Foundation
import Ubiquity

/// What `cloud verify` found: the devices that applied the same logs as this one and hold the
/// same data, those that hold different data (and which objects differ), and those that cannot
/// be compared now.
public struct VerifyResult: Equatable, Sendable {
    /// A device that applied the same logs and holds the same data.
    public struct Agreement: Equatable, Sendable {
        public var peer: String
        public var device: String
    }

    /// One object that is not the same on both sides.
    public struct Difference: Equatable, Sendable {
        public enum Kind: String, Sendable {
            /// Both hold it, with different values or clock readings.
            case differs
            /// Only this device holds it (live or deleted).
            case onlyHere
            /// Only the other device holds it.
            case onlyThere
            /// An object of a differing bucket on this side, until the other device's detail
            /// arrives to tell which of them differ.
            case inDifferingBucket
        }

        public var entity: String
        public var id: String
        /// Its unique attribute's value on this device ("Milk"), when it has one.
        public var label: String?
        public var kind: Kind
    }

    /// A device that applied the same logs and holds different data.
    public struct Divergence: Equatable, Sendable {
        public var peer: String
        public var device: String
        /// The buckets (first two hex digits of the IDs) whose hashes differ.
        public var buckets: [String]
        public var objects: [Difference]
    }

    /// A device whose data cannot be compared now, and why.
    public struct NotComparable: Equatable, Sendable {
        public var peer: String
        public var device: String?
        public var reason: String
    }

    /// A device that cannot reach the same logs as this one, or this one as it.
    public struct Stuck: Equatable, Sendable {
        public var peer: String
        public var device: String?
        /// Which file, whose, and who waits for it.
        public var reason: String
        /// The logs of other peers the waiting side may skip if their writers never sync
        /// again: what the command line advises releasing.
        public var skippable: [LogNumber]
    }

    /// One log of one peer.
    public struct LogNumber: Equatable, Sendable {
        public var peer: String
        public var seq: Int64
    }

    /// How many logs this device's data comes from.
    public var logs: Int64
    /// Why this device has nothing to compare now (saves not exported, blobs not arrived).
    public var notComparableHere: String?
    public var agreeing: [Agreement]
    public var diverging: [Divergence]
    public var notComparable: [NotComparable]
    /// Devices that cannot reach the same logs as this one, or this one as them: one side waits
    /// for a log no longer in the cloud folder (or damaged there) that no baseline covers.
    public var stuck: [Stuck]
    /// Digest or detail files that were not used, with why.
    public var badFiles: [String]

    init(_ report: VerifyReport) {
        logs = report.logs
        notComparableHere = report.notComparableHere
        agreeing = report.agreeing.map { Agreement(peer: $0.peer, device: $0.device) }
        diverging = report.diverging.map { divergence in
            Divergence(
                peer: divergence.peer, device: divergence.device, buckets: divergence.buckets,
                objects: divergence.objects.map {
                    Difference(entity: $0.entity, id: $0.id, label: $0.label, kind: Difference.Kind($0.kind))
                })
        }
        notComparable = report.notComparable.map { NotComparable(peer: $0.peer, device: $0.device, reason: $0.reason) }
        stuck = report.stuck.map {
            Stuck(
                peer: $0.peer, device: $0.device, reason: $0.reason,
                skippable: $0.skippable.map { LogNumber(peer: $0.peer, seq: $0.seq) })
        }
        badFiles = report.badFiles
    }
}

extension VerifyResult.Difference.Kind {
    init(_ kind: VerifyReport.Difference.Kind) {
        self =
            switch kind {
            case .differs: .differs
            case .onlyHere: .onlyHere
            case .onlyThere: .onlyThere
            case .inDifferingBucket: .inDifferingBucket
            }
    }
}

/// The last `cloud verify` of this store, kept for `cloud status` and the Cloud screen.
public struct LastVerify: Equatable, Sendable {
    public var at: Date
    /// Devices that agreed, and that diverged.
    public var agreed: [String]
    public var diverged: [String]

    init(_ summary: VerifySummary) {
        at = summary.at
        agreed = summary.agreed
        diverged = summary.diverged
    }
}
