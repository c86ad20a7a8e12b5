import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing

/// The coordinator's one stream of messages: a transition's will and did on the thread that
/// runs it, in order, before it returns; an import in the background as one message with its
/// counts and devices, on another thread; a merge's progress on the merge's thread.
@Suite("Store messages")
struct StoreMessageTests {
    let directory = TemporaryDirectory("messages")

    /// Every message, with the thread it arrived on.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [(message: StoreMessage, thread: Thread)] = []

        func append(_ message: StoreMessage) { lock.withLock { messages.append((message, Thread.current)) } }
        var all: [(message: StoreMessage, thread: Thread)] { lock.withLock { messages } }

        var imports: [BackgroundImport] {
            all.compactMap { if case .imported(let done) = $0.message { done } else { nil } }
        }
    }

    /// A device on its account's cloud store, set up.
    func cloudDevice(_ name: String) throws -> StoreCoordinator {
        let config = try StoreConfiguration.temporary(in: directory, device: name)
        try config.changeSettings { $0.cloudEnabled = true }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        #expect(try CloudSetup.run(config, account: "default"))
        try coordinator.finishSetup()
        #expect(coordinator.current.role == .cloud)
        return coordinator
    }

    @Test func aTransitionsWillAndDidArriveInOrderOnTheThreadThatRunsIt() throws {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        try config.changeSettings { $0.cloudEnabled = true }
        let coordinator = try StoreCoordinator(configuration: config, claimDevice: { true })
        let received = Received()
        coordinator.subscribe { received.append($0) }
        // Another terminal signs the device in to another account; a thread of the test's own
        // notices it, as the app's UI thread does.
        try config.changeSettings { $0.account = "bravo" }
        nonisolated(unsafe) var polled: (changed: Bool, toldBeforeReturning: Int, thread: Thread?) = (false, 0, nil)
        let finished = DispatchSemaphore(value: 0)
        let worker = Thread {
            polled.thread = Thread.current
            polled.changed = (try? coordinator.poll()) ?? false
            polled.toldBeforeReturning = received.all.count
            finished.signal()
        }
        worker.start()
        #expect(finished.wait(timeout: .now() + 20) == .success)

        #expect(polled.changed)
        #expect(received.all.count == 2)
        guard case .storesWillChange(let will) = received.all.first?.message,
            case .storesDidChange(let did) = received.all.last?.message
        else {
            Issue.record("expected will change, then did change: \(received.all.map(\.message))")
            return
        }
        #expect(will.transition == .accountChanged && did == will)
        #expect(did.added.map(\.account) == ["bravo"], "now on the new account's store")
        #expect(polled.toldBeforeReturning == 2, "told synchronously, before poll() returned")
        #expect(received.all.allSatisfy { $0.thread === polled.thread }, "on the thread that polled")
    }

    @Test func anImportInTheBackgroundArrivesAsOneMessageWithItsCountsAndDevices() throws {
        let kitchen = try cloudDevice("kitchen")
        let phone = try cloudDevice("phone")
        let phoneStore = phone.current.store
        let milk = try phoneStore.addItem(ItemDraft(name: "Milk"))
        try phoneStore.addItem(ItemDraft(name: "Eggs"))
        phone.current.exportPending()
        #expect(kitchen.current.importPending() ?? 0 > 0)
        #expect(try Set(kitchen.current.store.items().map(\.name)) == ["Milk", "Eggs"], "the kitchen knows both items")

        // The phone edits one, deletes the other, adds a third: all exported before the kitchen's
        // background sync starts, so that its first round imports them together.
        var changes = ItemChanges()
        changes.quantity = 3
        try phoneStore.editItem(milk.id.description, changes)
        try phoneStore.removeItem("Eggs")
        try phoneStore.addItem(ItemDraft(name: "Bread"))
        phone.current.exportPending()

        let received = Received()
        kitchen.subscribe { received.append($0) }
        kitchen.startBackgroundSync(wake: {})
        defer { kitchen.stopBackgroundSync() }
        try Poll.until("an import from the background (messages so far: \(received.all.map(\.message)))") {
            !received.imports.isEmpty
        }

        let imports = received.imports
        #expect(imports.count == 1)
        let done = try #require(imports.first)
        #expect((done.inserted, done.updated, done.deleted) == (1, 1, 1))
        #expect(done.devices == ["phone"])
        #expect(done.summary == "3 changes from phone")
        #expect(done.updatedItems == [milk.id])
        #expect(done.otherEntities == [GrocerySchema.Entity.item], "items added and deleted: the list's order may move")
        let before = try #require(done.tokenBefore)
        let after = try #require(done.tokenAfter)
        #expect(after > before, "no save came between the readings: the import is the only change")
        #expect(received.all.allSatisfy { $0.thread !== Thread.current }, "on the background's thread")
        #expect(try Set(kitchen.current.store.items().map(\.name)) == ["Bread", "Milk"])
    }

    @Test func aMergesProgressArrivesOnTheThreadThatRunsIt() throws {
        let kitchen = try cloudDevice("kitchen")
        let local = try GroceryStore.temporary(in: directory, name: "kept")
        try local.fill(items: 3, locations: 1)
        try local.close()

        let received = Received()
        kitchen.subscribe { received.append($0) }
        let result = try kitchen.startSeed(from: directory.file("kept.sqlite"))
        #expect(result.finished)
        let progress = received.all.compactMap { entry -> (done: Int, total: Int)? in
            if case .seedProgress(let done, let total) = entry.message { (done, total) } else { nil }
        }
        #expect(!progress.isEmpty)
        #expect(progress.last.map { $0.done == $0.total && $0.total > 0 } == true, "told up to the end")
        #expect(received.all.allSatisfy { $0.thread === Thread.current }, "on the caller's thread")
        #expect(try kitchen.current.store.items().count == 3)
    }
}
