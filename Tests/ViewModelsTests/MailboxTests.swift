import Foundation
import TestSupport
import Testing

@testable import ViewModels

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

    @Test func eventsReadAsStatusLines() {
        #expect(AppEvent.imported(count: 3, devices: ["kitchen"]).message == "3 changes from kitchen")
        #expect(AppEvent.imported(count: 1, devices: ["phone", "kitchen"]).message == "1 change from kitchen, phone")
        #expect(AppEvent.problem("waiting for log 2 from peer x").message == "waiting for log 2 from peer x")
        #expect(AppEvent.deduplicated(merged: 2).message == "Merged 2 duplicates")
    }

    @Test func waitReturnsWhatArrivesFromAnotherThread() throws {
        let mailbox = Mailbox<Int>()
        #expect(mailbox.wait(timeout: 0.05).isEmpty, "nothing posted: waits, then gives up")
        // The other thread posts once this one sleeps in the wait (its state in /proc: S).
        let waiter = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        Thread.detachNewThread {
            try? Poll.until("the waiting thread asleep") { Self.state(ofThread: waiter) == "S" }
            mailbox.post(7)
        }
        #expect(mailbox.wait(timeout: 60) == [7])
    }

    /// The state letter (R running, S sleeping…) of the thread at `/proc/<thread>/stat`.
    static func state(ofThread thread: String) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(thread)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: end)...].first { $0 != " " }
    }
}
