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
///
/// The 122 random bits come from the system's generator (`getrandom`), not from Foundation's
/// `UUID()`, which opened and read `/dev/urandom` for every ID: two IDs a save (the object's and
/// the transaction's), a tenth of a save's time in its transaction.
public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func next() -> GlobalID {
        var generator = SystemRandomNumberGenerator()
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: 8, as: UInt64.self)
        }
        // Version 4, variant 1 (RFC 9562), as `UUID()` gives.
        uuid.6 = (uuid.6 & 0x0F) | 0x40
        uuid.8 = (uuid.8 & 0x3F) | 0x80
        return GlobalID(UUID(uuid: uuid))
    }
}
