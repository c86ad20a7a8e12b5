import Foundation

@testable import ViewModels

extension AppModel {
    /// Runs the UI thread's loop — the mailbox's messages, then ``update()`` — until `done`
    /// holds or `timeout` passes: the coordinator, sync and merges work on other threads.
    func update(until done: () -> Bool, timeout: TimeInterval = 20) {
        let deadline = Date().addingTimeInterval(timeout)
        while !done(), Date() < deadline {
            _ = mailbox.wait(timeout: 0.05).map(handle)
            update()
        }
    }
}
