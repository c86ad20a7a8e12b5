import Foundation
import Ubiquity

/// A clock that says what the test tells it to.
public final class TestClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// IDs 00000000-0000-0000-0000-000000000001, …02, … in order.
public final class SequentialIDs: IDGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var counter: UInt64 = 0
    private let prefix: String

    /// - Parameter prefix: eight hex digits that start every ID, to tell generators apart.
    public init(prefix: String = "00000000") { self.prefix = prefix }

    public func next() -> GlobalID {
        let value = lock.withLock {
            counter += 1
            return counter
        }
        return GlobalID("\(prefix)-0000-4000-8000-" + String(value, radix: 16).leftPadded(to: 12))!
    }
}

/// A seeded random source (SplitMix64): a failing property test can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// The text with zeros before it up to `width` characters. (Foundation's `String(format:)`
    /// crashed now and then inside CoreFoundation when tests ran it on several threads.)
    public func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
