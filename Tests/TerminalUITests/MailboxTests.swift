import Foundation
import Testing
@testable import TerminalUI

@Suite("The UI thread's mailbox")
struct MailboxTests {
    @Test func messagesFromOtherThreadsArriveInOrderAndWakeTheWaiter() {
        let mailbox = Mailbox<Int>()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<100 { mailbox.post(worker * 1000 + index) }
        }
        var descriptor = pollfd(fd: mailbox.wake.readFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 0) == 1, "the pipe is readable")
        let taken = mailbox.take()
        #expect(taken.count == 400)
        for worker in 0..<4 {
            let mine = taken.filter { $0 / 1000 == worker }
            #expect(mine == mine.sorted(), "each thread's messages keep their order")
        }
        #expect(mailbox.take().isEmpty)
        #expect(poll(&descriptor, 1, 0) == 0, "taking drains the pipe")
    }

    @Test func syncEventsReadAsStatusLines() {
        #expect(SyncEvent.imported(count: 3, devices: ["kitchen"]).message == "3 changes from kitchen")
        #expect(SyncEvent.imported(count: 1, devices: ["phone", "kitchen"]).message == "1 change from kitchen, phone")
        #expect(SyncEvent.problem("waiting for log 2 from peer x").message == "waiting for log 2 from peer x")
    }
}
