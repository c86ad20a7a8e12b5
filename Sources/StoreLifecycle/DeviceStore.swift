import Foundation
import GroceryModel
import Logging
import TextAndFiles
import Ubiquity

/// A store a device runs on, open: what it is (local, fallback or cloud), the grocery store, and
/// for a cloud store its link to the cloud folder.
public struct DeviceStore: Sendable {
    public let description: StoreDescription
    public let store: GroceryStore
    /// Only a cloud store has one.
    let sync: CloudSync?
    let configuration: StoreConfiguration

    public var role: StoreDescription.Role { description.role }
    public var account: String? { description.account }
    /// Core Data's "Using local storage": 1 on a local or fallback store, 0 on a cloud store.
    public var usingLocalStorage: Bool { role != .cloud }
    var logger: Logger { configuration.logger }

    /// Closes the store (a transition moves away from it).
    public func close() throws {
        try store.close()
    }

    // MARK: - Opening

    /// The device's own store (with the default data on its first launch, unless turned off).
    static func openLocal(_ configuration: StoreConfiguration) throws -> DeviceStore {
        let url = configuration.localStoreURL
        let store = try configuration.openStore(at: url, defaultData: configuration.defaultData)
        return DeviceStore(
            description: StoreDescription(role: .local, account: nil, path: url.path),
            store: store, sync: nil, configuration: configuration)
    }

    /// An account's fallback store: empty at first, never synced; its records move into the
    /// cloud store when that is set up.
    static func openFallback(_ configuration: StoreConfiguration, account: String) throws -> DeviceStore {
        let url = configuration.fallbackStoreURL(account: account)
        try makeParent(of: url)
        let store = try configuration.openStore(at: url)
        return DeviceStore(
            description: StoreDescription(role: .fallback, account: account, path: url.path),
            store: store, sync: nil, configuration: configuration)
    }

    /// An account's cloud store, linked to the cloud folder at the epoch the store holds. Every
    /// save is exported once it is committed (when online): at once for a command, on a queue
    /// of its own for the app (``StoreConfiguration/exportsInBackground``).
    static func openCloud(_ configuration: StoreConfiguration, account: String) throws -> DeviceStore {
        let url = configuration.cloudStoreURL(account: account)
        try makeParent(of: url)
        let store = try configuration.openStore(at: url)
        var epoch = try store.objects.metadata(CloudSetup.epochKey).flatMap(Int.init) ?? 1
        // Made just now, before its one-time setup (another process holds the device): it starts
        // at the cloud's current epoch, not at 1, which a peer may have left.
        if store.objects.isNew, try store.objects.metadata(CloudSetup.epochKey) == nil,
            configuration.folderProblem(
                (try? DeviceSettings.load(from: configuration.sandbox)) ?? DeviceSettings(), account: account) == nil
        {
            epoch = try configuration.layout(account: account).currentEpoch()
            try store.objects.setMetadata(CloudSetup.epochKey, String(epoch))
        }
        let layout = try configuration.layout(account: account, epoch: epoch)
        let person = configuration.person().name
        let sync = CloudSync(
            store: store.objects, layout: layout, device: configuration.sandbox.device,
            instance: configuration.sandbox.instance, person: person, logger: configuration.logger)
        let device = DeviceStore(
            description: StoreDescription(role: .cloud, account: account, path: url.path),
            store: store, sync: sync, configuration: configuration)
        let exporter = SaveExporter(inBackground: configuration.exportsInBackground) { device.exportPending() }
        store.objects.observeSaves { _ in exporter.saved() }
        return device
    }

    static func makeParent(of url: URL) throws {
        try FileManager.default.createFolder(at: url.deletingLastPathComponent())
    }

    // MARK: - Syncing

    /// Whether this store works without the cloud now: a local or fallback store always; a cloud
    /// store when `cloud offline` is set or the cloud folder is not reachable.
    public var isOffline: Bool { sync == nil || configuration.isOffline }

    /// Exports pending saves. A failure is a warning: the saves wait in the outbox for the next
    /// export, nothing is lost. Offline, they simply wait.
    @discardableResult
    public func exportPending() -> Int {
        guard let sync else { return 0 }
        let settings = (try? DeviceSettings.load(from: configuration.sandbox)) ?? DeviceSettings()
        guard !settings.offline else { return 0 }
        if let problem = configuration.folderProblem(settings) {
            // A folder that is there but is not the account's is told; a missing one is plain offline.
            if problem.isAnotherFolder {
                configuration.tellOnce(Notice(.note, "the change is not exported: \(problem.reason)"))
            }
            return 0
        }
        do {
            let written = try sync.exportPending()
            tellHistoryNotes()
            return written
        } catch StoreError.closed(_) {
            return 0  // the app moved to another store: that one exports its own saves
        } catch {
            let reason = ErrorText.reason(error)
            logger.warning("export failed: \(reason)")
            configuration.tell(
                Notice(
                    .warning,
                    "cannot export to the cloud folder \(sync.layout.cloud.path): \(reason); the change is kept on this device"
                ))
            return 0
        }
    }

    /// Imports what other peers wrote. Problems are logged and reported, never fatal.
    ///
    /// - Returns: how many logs it applied; `nil` offline, without a link to the cloud, or
    ///   when the import failed.
    @discardableResult
    public func importPending() -> Int? {
        importReport()?.appliedLogs
    }

    /// Imports what other peers wrote, with the engine's report of it (for this module: the
    /// preparation of a command adds it up).
    func importReport() -> ImportReport? {
        guard let sync, !isOffline else { return nil }
        do {
            let report = try sync.importPending()
            tellHistoryNotes()
            for line in report.waiting + report.rejected { logger.warning("\(line)") }
            if let clone = sync.cloneEvidence { takeOwnIdentity(after: clone) }
            return report
        } catch {
            logger.warning("import failed: \(ErrorText.reason(error))")
            return nil
        }
    }

    /// What this device's own published history went through (recovered after a restore,
    /// republished by the audit, a log lost): journaled, and told to whoever runs the command.
    func tellHistoryNotes() {
        guard let sync else { return }
        for note in sync.takeHistoryNotes() {
            try? TransitionJournal(sandbox: configuration.sandbox).record(
                event: note.event, detail: note.text, by: configuration.process)
            configuration.tell(Notice(.note, note.text))
        }
    }

    /// Another copy of this device's folder published under its identity: this copy takes a
    /// new one (once), journals it and says so. Its waiting saves are published under the new
    /// identity by the next process (this one's store stamps the former).
    private func takeOwnIdentity(after clone: CloneEvidence) {
        guard let sync else { return }
        do {
            guard let renewed = try configuration.sandbox.renewPeerID(replacing: sync.peer) else { return }
            let note =
                "another copy of this device's data folder (running as device \(clone.device.debugDescription)) published log \(clone.seq) under the same identity: this copy now has its own (peer \(renewed)); its changes are published under it from the next command (or when the app is opened again)"
            try? TransitionJournal(sandbox: configuration.sandbox).record(
                event: "identityRenewed", detail: note, by: configuration.process)
            logger.warning("\(note)")
            configuration.tell(Notice(.note, note))
        } catch {
            logger.warning("cannot give this copy of the device an identity of its own: \(ErrorText.reason(error))")
        }
    }
}
