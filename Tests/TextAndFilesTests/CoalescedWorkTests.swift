import Foundation
import Testing
import TextAndFiles

/// Work asked for many times before it starts runs once; work asked for while it runs runs again.
@Suite("Coalesced work")
struct CoalescedWorkTests {
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }

    @Test func requestsMadeBeforeARunStartsAreThatRun() {
        let queue = DispatchQueue(label: "coalesced-work-test")
        let work = CoalescedWork(queue: queue)
        let runs = Runs()
        queue.suspend()  // the run waits to start
        for _ in 1...5 { work.request { runs.add() } }
        queue.resume()
        queue.sync {}
        #expect(runs.count == 1)

        work.request { runs.add() }
        queue.sync {}
        #expect(runs.count == 2, "a request after the run ran is a run of its own")
    }

    @Test func aRequestMadeDuringARunIsNeverLost() {
        let queue = DispatchQueue(label: "coalesced-work-test")
        let work = CoalescedWork(queue: queue)
        let runs = Runs()
        work.request {
            runs.add()
            work.request { runs.add() }  // what changed during the run needs another
        }
        queue.sync {}  // the first run, which asked for the second
        queue.sync {}  // the second
        #expect(runs.count == 2)
    }
}
