import Foundation

/// What comparing this peer's digest with the other peers' found (``CloudSync/verify()``).
public struct VerifyReport: Equatable, Sendable {
    /// A peer that applied the same logs and holds the same data.
    public struct Agreement: Equatable, Sendable {
        public var peer: String
        public var device: String
    }

    /// One object that is not the same on both sides.
    public struct Difference: Equatable, Sendable {
        public enum Kind: String, Sendable {
            /// Both hold it, with different values or clock readings.
            case differs
            /// Only this peer holds it (live or deleted).
            case onlyHere
            /// Only the other peer holds it.
            case onlyThere
            /// An object of a differing bucket on this side; the other peer's detail has not
            /// arrived yet to tell which of them differ.
            case inDifferingBucket
        }

        public var entity: String
        public var id: String
        /// Its unique attribute's value on this peer ("Milk"), when it has one.
        public var label: String?
        public var kind: Kind
    }

    /// A peer that applied the same logs and holds different data.
    public struct Divergence: Equatable, Sendable {
        public var peer: String
        public var device: String
        /// The buckets (first two hex digits of the IDs) whose hashes differ.
        public var buckets: [String]
        public var objects: [Difference]
    }

    /// A peer whose digest cannot be compared now, and why.
    public struct NotComparable: Equatable, Sendable {
        public var peer: String
        public var device: String?
        public var reason: String
    }

    /// A peer that cannot reach the same logs as this one, or this one as it: one of them waits
    /// for a log that is not in the cloud folder (or is damaged there) and that no baseline
    /// covers. A conclusion, not "compare again".
    public struct Stuck: Equatable, Sendable {
        public var peer: String
        public var device: String?
        /// Which file, whose, and who waits for it.
        public var reason: String
        /// The logs of other peers the waiting side may skip if their writers never sync again
        /// (``CloudSync/release(peer:seq:)``; the command line names its command).
        public var skippable: [LogNumber] = []
    }

    /// One log of one peer.
    public struct LogNumber: Equatable, Sendable {
        public var peer: String
        public var seq: Int64
    }

    /// This peer's applied vector (per peer, the last log applied).
    public var applied: [String: Int64] = [:]
    /// Why this peer has nothing to compare now (saves not exported, blobs not arrived).
    public var notComparableHere: String?
    public var agreeing: [Agreement] = []
    public var diverging: [Divergence] = []
    public var notComparable: [NotComparable] = []
    public var stuck: [Stuck] = []
    /// Digest or detail files that were not used, with why.
    public var badFiles: [String] = []

    public init() {}

    /// How many logs this peer's data comes from.
    public var logs: Int64 { applied.values.reduce(0, +) }
}

/// The last verification's outcome, kept in the store for `cloud status`.
public struct VerifySummary: Codable, Equatable, Sendable {
    public var at: Date
    /// Devices that agreed, and that diverged.
    public var agreed: [String]
    public var diverged: [String]
}
