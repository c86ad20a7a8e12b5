import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
/// the transaction's), a tenth of a save's time in its transaction. All 16 bytes come from one
/// call, `arc4random_buf`, which glibc answers with one `getrandom` (Swift's generator asks
/// twice, for 8 bytes each) and keeps no bytes between calls: no copy of the process (a fork)
/// can hand out the same ones.
public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func next() -> GlobalID {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            arc4random_buf(bytes.baseAddress!, bytes.count)
        }
        // Version 4, variant 1 (RFC 9562), as `UUID()` gives.
        uuid.6 = (uuid.6 & 0x0F) | 0x40
        uuid.8 = (uuid.8 & 0x3F) | 0x80
        return GlobalID(UUID(uuid: uuid))
    }
}
