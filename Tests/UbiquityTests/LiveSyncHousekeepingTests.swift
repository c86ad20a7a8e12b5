import Foundation
import TestSupport
import Testing

@testable import Ubiquity

/// The live watcher writes baselines and compares digests (each reads or writes the whole
/// store) in quiet rounds only, so that changes arriving in a stream never wait behind them;
/// a stream that never pauses puts them off for half a minute at most.
@Suite("Live sync's housekeeping")
struct LiveSyncHousekeepingTests {
    let cloud = TemporaryDirectory("cloud")

    @Test func housekeepingWaitsForAQuietRoundOrHalfAMinute() throws {
        let peer = try TestPeer(name: "a", prefix: "aaaaaaaa", cloud: cloud.url, clock: TestClock())
        let live = LiveSync(sync: peer.sync)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(live.isTimeForHousekeeping(busy: false, now: start))
        // A stream of imports: put off...
        #expect(!live.isTimeForHousekeeping(busy: true, now: start))
        #expect(!live.isTimeForHousekeeping(busy: true, now: start + 10))
        // ...also by a round in the stream that found nothing new (woken by a temporary file)...
        #expect(!live.isTimeForHousekeeping(busy: false, now: start + 10.5))
        #expect(!live.isTimeForHousekeeping(busy: true, now: start + 29))
        // ...until the stream has lasted the delay, then the count starts again.
        #expect(live.isTimeForHousekeeping(busy: true, now: start + LiveSync.housekeepingDelay))
        #expect(!live.isTimeForHousekeeping(busy: true, now: start + LiveSync.housekeepingDelay + 1))
        // A round after a quiet second does it at once and forgets the stream.
        #expect(
            live.isTimeForHousekeeping(busy: false, now: start + LiveSync.housekeepingDelay + 1 + LiveSync.quietPeriod))
        #expect(!live.isTimeForHousekeeping(busy: true, now: start + 41))
    }
}
