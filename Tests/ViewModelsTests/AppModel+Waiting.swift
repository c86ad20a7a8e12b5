import Foundation
import TestSupport

@testable import ViewModels

extension AppModel {
    /// Runs the UI thread's loop — the mailbox's messages, then ``update()`` — until `done`
    /// holds: the coordinator, sync and merges work on other threads. The mailbox's wait paces
    /// the loop (it returns as soon as a message arrives).
    ///
    /// - Throws: ``PollTimeout`` when `done` still does not hold after `timeout` seconds.
    func update(until done: () -> Bool, timeout: TimeInterval = Poll.defaultTimeout) throws {
        try Poll.until(
            timeout: timeout, every: 0, "the app's state the test waits for (message: \(latestStatus?.text ?? "none"))"
        ) {
            _ = mailbox.wait(timeout: 0.05).map(handle)
            update()
            return done()
        }
    }
}
