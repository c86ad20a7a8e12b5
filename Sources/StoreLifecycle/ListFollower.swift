import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

/// What a visit of another list than the one on screen did (``ListFollower``), for the app and
/// `cloud watch` to tell: "Trip: 3 changes from phone".
public struct ListVisit: Sendable, Equatable {
    public var list: NamedList
    /// What it imported, when that changed something.
    public var imported: BackgroundImport?
    /// Logs of this device's saves it exported.
    public var exported: Int
    /// Why it could not bring the list up to date, or set it up.
    public var problem: String?
}

/// Every list of the device kept in sync while the app or `cloud watch` runs, besides the one
/// they run on: each is brought up to date as a command's store is (its one-time setup, a
/// start over by another device noticed and its data kept aside, other devices' logs imported,
/// its own waiting saves exported, lists merged into it carried), then closed again.
///
/// Lazily: a hundred lists are not a hundred open stores and watchers. One thread looks every
/// ``sweepInterval`` at each list's files — its store files on the device and the folders of its
/// logs in the cloud folder (a few `stat` calls a list) — and opens a list only when those
/// changed since its last visit (a log arrived, a save waits, the folder came back), or, after a
/// visit that failed (a setup that could not finish), once ``revisitInterval`` has passed. Lists made or announced while it runs are found at the next
/// sweep. While the device does not sync (signed out, sync off, offline, a folder that is not
/// its own) it visits nothing.
///
/// The list the caller runs on is never visited: its own coordinator keeps it (the app's
/// background sync). A switch of the caller to another list waits for a visit of that list
/// under way (``StoreCoordinator/switchStore(named:)``).
final class ListFollower: @unchecked Sendable {
    static let sweepInterval: TimeInterval = 2
    static let revisitInterval: TimeInterval = 60

    private let configuration: StoreConfiguration
    private let claimDevice: () -> Bool
    private let skipping: @Sendable () -> String
    private let onVisit: @Sendable (ListVisit) -> Void
    private let onGone: @Sendable (NamedList, NamedList?) -> Void
    /// The caller's store last told removed.
    private var toldGone: String?
    /// Held while a list is visited or carried into: a switch to it waits (see above), and
    /// ``stop()`` waits for it.
    let visiting = NSLock()
    private let wake = DispatchSemaphore(value: 0)
    private let stateLock = NSLock()
    private var stopped = false
    /// Per store name: the signature of its files at its last visit, when, and whether it failed.
    private var lastVisits: [String: (signature: String, at: Date, failed: Bool)] = [:]

    /// - Parameters:
    ///   - skipping: the store the caller runs on now (read at every sweep).
    ///   - onVisit: called on the follower's thread after each visit that did something.
    ///   - onGone: called on the follower's thread when the caller's list was removed or merged
    ///     away (by another device), with the list its items went to.
    init(
        configuration: StoreConfiguration, claimDevice: @escaping () -> Bool,
        skipping: @escaping @Sendable () -> String,
        onVisit: @escaping @Sendable (ListVisit) -> Void, onGone: @escaping @Sendable (NamedList, NamedList?) -> Void
    ) {
        var configuration = configuration
        // A visit is a command's work: exported at once, one connection, nothing left running.
        configuration.exportsInBackground = false
        configuration.runsOneCommand = true
        self.configuration = configuration
        self.claimDevice = claimDevice
        self.skipping = skipping
        self.onVisit = onVisit
        self.onGone = onGone
    }

    func start() {
        let thread = Thread { [self] in
            while !stateLock.withLock({ stopped }) {
                sweep()
                _ = wake.wait(timeout: .now() + Self.sweepInterval)
            }
        }
        thread.name = "list follower"
        thread.start()
    }

    /// Stops after the visit under way, if any.
    func stop() {
        stateLock.withLock { stopped = true }
        wake.signal()
        // The visit under way finishes before the caller closes its stores.
        visiting.lock()
        visiting.unlock()
    }

    /// One look at every list; visits those due.
    func sweep(now: Date = Date()) {
        guard let settings = try? DeviceSettings.load(from: configuration.sandbox), settings.cloudEnabled,
            settings.account != nil,
            !configuration.isOffline
        else { return }
        let named = NamedLists(configuration: configuration)
        // The lists read once a sweep: every device's word, removed ones included.
        guard let known = try? named.knownNow() else { return }
        let lists = named.live(known)
        let merged = Dictionary(
            grouping: known.values.filter { $0.isRemoved && $0.mergedInto != nil }, by: { $0.mergedInto! })
        let skipped = skipping()
        let account = settings.account
        // The caller's own list: removed or merged away elsewhere, it is told (once), and what
        // lists merged into it gained is carried there.
        if let own = known[skipped], own.isRemoved {
            if toldGone != skipped {
                toldGone = skipped
                onGone(own, NamedLists.survivor(of: own, in: known))
            }
        } else if let into = merged[skipped] {
            carryMergedLists(into: skipped, into, account: account)
        }
        // A list's files, and those of the lists merged into it: what arrives late for those is
        // carried when the list is visited.
        func signatureOf(_ storeName: String) -> String {
            ([storeName] + (merged[storeName] ?? []).map(\.storeName)).map {
                ListMerge.signature(of: $0, configuration, account: account)
            }
            .joined(separator: "|")
        }
        for list in lists where list.storeName != skipped {
            guard !stateLock.withLock({ stopped }) else { return }
            let signature = signatureOf(list.storeName)
            if let last = lastVisits[list.storeName], last.signature == signature,
                !last.failed || now.timeIntervalSince(last.at) < Self.revisitInterval
            {
                continue
            }
            let visit = self.visit(list)
            lastVisits[list.storeName] = (signatureOf(list.storeName), now, visit.problem != nil)
            if visit.imported != nil || visit.exported > 0 || visit.problem != nil { onVisit(visit) }
        }
    }

    /// Carries what lists merged into the caller's store gained, when their files changed:
    /// through a coordinator of its own on that store (as a command running beside the app).
    private func carryMergedLists(into storeName: String, _ merged: [NamedList], account: String?) {
        let carried = CarriedLists(configuration.sandbox).all()
        guard
            merged.contains(where: {
                carried[$0.storeName]?.signature
                    != ListMerge.signature(of: $0.storeName, configuration, account: account)
            })
        else { return }
        visiting.lock()
        defer { visiting.unlock() }
        var survivor = configuration
        survivor.storeName = storeName
        do {
            let coordinator = try StoreCoordinator(configuration: survivor, claimDevice: claimDevice)
            defer { try? coordinator.current.close() }
            coordinator.carryMergedLists()
        } catch {
            configuration.logger.warning("cannot carry the lists merged into \(storeName): \(ErrorText.reason(error))")
        }
    }

    /// Opens `list`, brings it up to date, closes it.
    private func visit(_ list: NamedList) -> ListVisit {
        visiting.lock()
        defer { visiting.unlock() }
        var result = ListVisit(list: list, exported: 0)
        var configuration = configuration
        configuration.storeName = list.storeName
        do {
            let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: claimDevice)
            defer { try? coordinator.current.close() }
            try coordinator.prepareForCommand()
            result.exported = coordinator.preparation.exported
            if let report = coordinator.preparation.imported, report.changedSomething {
                result.imported = BackgroundImport(report, before: nil, after: nil)
            }
            result.problem = coordinator.preparation.setupProblem
        } catch {
            result.problem = "cannot sync the list \"\(list.name)\": \(ErrorText.reason(error))"
        }
        return result
    }
}
