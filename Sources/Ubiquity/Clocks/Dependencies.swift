import Foundation

/// Where "now" comes from. Injected so that tests of saves and sync are deterministic.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Where new global IDs come from. Injected so that tests can predict them.
public protocol IDGenerator: Sendable {
    func next() -> GlobalID
}

/// Random version-4 UUIDs: what every real device uses.
public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func next() -> GlobalID { GlobalID(UUID()) }
}
