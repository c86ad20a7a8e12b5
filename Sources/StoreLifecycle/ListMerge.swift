import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

/// Two lists made one (`lists merge FROM --into INTO`): what the merge copies, and how what
/// arrives late for the merged-away list reaches the survivor on every device.
///
/// - The copy keeps every value's clock reading (``StoreSeeder/keepsReadings``): it is the same
///   writes made at the same times, so an edit of either list made before the merge — offline,
///   or not yet delivered — wins or loses by its own time, never to the copy. Items of one name
///   are matched as the seed matches them, and what is left of duplicates merged as `dedupe`
///   does; the survivor's logs carry it all to every peer.
/// - The merged-away list is removed everywhere, with the survivor's store name
///   (``NamedList/mergedInto``). Its store stays on each device: a device that holds it
///   carries into the survivor whatever its copy gains later — its own edits made before it
///   learned of the merge, logs of other devices that arrive late — the first time it learns of
///   the merge (and tells it then, once), and whenever that copy or its cloud folder changes.
///   A carry is idempotent (same values, same readings), so two devices carrying the same late
///   change make one change.
public enum ListMerge {
    /// What a merge did.
    public struct Outcome: Sendable, Equatable {
        public var survivor: NamedList
        public var mergedAway: NamedList
        /// Objects the survivor took: new ones, and values later than its own.
        public var copied: Int
        /// Copies merged into others afterwards (two items of one name).
        public var deduplicated: Int
        /// Changes of the survivor still waiting to be exported (offline).
        public var waiting: Int
    }

    /// Merges the list `from` (its store open in `source`) into `into` (open in `survivor`), both
    /// prepared (set up, imported, exported), then records the merge for every device.
    public static func merge(
        _ from: NamedList, into: NamedList, lists: NamedLists,
        source: StoreCoordinator, survivor: StoreCoordinator
    ) throws -> Outcome {
        guard from.storeName != into.storeName else { throw NamedListError.sameList(from.name) }
        guard !from.isDefault else { throw NamedListError.defaultList }
        let copied = try carry(source, into: survivor, author: "lists merge")
        survivor.current.exportPending()
        let deduplicated = try survivor.current.store.mergeDuplicates().mergedCount
        survivor.current.exportPending()
        // Copied first, recorded then: a merge interrupted between the two is run again, and
        // copies nothing twice.
        try CarriedLists(survivor.configuration.sandbox).record(
            from.storeName, into: into.storeName,
            token: try source.current.store.changeToken(),
            signature: signature(of: from.storeName, survivor.configuration))
        let merged = try lists.recordMerge(from, into: into)
        survivor.journal(
            event: "listsMerged",
            detail:
                "merged the list \"\(from.name)\" (store \(from.storeName)) into \"\(into.name)\" (store \(into.storeName))"
        )
        let waiting = (try? survivor.current.sync?.pendingExports()) ?? 0
        return Outcome(survivor: into, mergedAway: merged, copied: copied, deduplicated: deduplicated, waiting: waiting)
    }

    /// Copies `source`'s store into `target`'s with its readings.
    ///
    /// - Returns: how many objects the target took.
    static func carry(_ source: StoreCoordinator, into target: StoreCoordinator, author: String) throws -> Int {
        let seeder = StoreSeeder(
            source: source.current.store.objects, target: target.current.store.objects, keepsReadings: true)
        return try seeder.run(author: author).changed
    }

    /// What changes when the merged-away list's copy on this device may have changed: its store
    /// files (sizes and times) and the folders of its logs in the cloud folder. Cheap: read
    /// before deciding to open that store at all.
    static func signature(of storeName: String, _ configuration: StoreConfiguration) -> String {
        signature(
            of: storeName, configuration, account: (try? DeviceSettings.load(from: configuration.sandbox))?.account)
    }

    /// ``signature(of:_:)`` with the account the device is in, read once by a caller that signs
    /// many lists.
    static func signature(of storeName: String, _ configuration: StoreConfiguration, account: String?) -> String {
        var configuration = configuration
        configuration.storeName = storeName
        var files = [configuration.localStoreURL.path]
        var trees: [String] = []
        if let account {
            files += [
                configuration.cloudStoreURL(account: account).path,
                configuration.fallbackStoreURL(account: account).path,
            ]
            trees.append(
                CloudLayout.accountFolder(cloud: configuration.cloud, account: account).appendingPathComponent(
                    storeName
                ).path)
        }
        files += files.map { $0 + "-wal" }
        // The folders of its logs, down to each peer's (`v<n>/epoch-<n>/logs/<peer>`): a file
        // added or renamed in one changes its time.
        return FileSignature.of(files: files, trees: trees, depth: 4)
    }
}

extension StoreCoordinator {
    /// Merges the list `from` into `into` as `lists merge` does, for the running app: both
    /// opened beside this coordinator's store (as a command running beside the app), brought up
    /// to date, merged, closed. The app's own store, when it is one of them, sees the merge as
    /// a change made by another process.
    public func mergeLists(_ from: NamedList, into: NamedList) throws -> ListMerge.Outcome {
        func open(_ list: NamedList) throws -> StoreCoordinator {
            var opened = configuration
            opened.storeName = list.storeName
            opened.exportsInBackground = false
            opened.runsOneCommand = true
            let coordinator = try StoreCoordinator(configuration: opened, claimDevice: claimDevice)
            do {
                try coordinator.prepareForCommand()
            } catch {
                try? coordinator.current.close()
                throw error
            }
            return coordinator
        }
        let survivor = try open(into)
        defer { try? survivor.current.close() }
        let source = try open(from)
        defer { try? source.current.close() }
        return try ListMerge.merge(
            from, into: into, lists: NamedLists(configuration: configuration), source: source, survivor: survivor)
    }

    /// Carries into this store what lists merged into it gained on this device since they were
    /// last carried here (see ``ListMerge``); the first time a device learns of a merge, it
    /// tells it. A list whose copy cannot be opened or read waits for the next command; the
    /// command goes on.
    func carryMergedLists() {
        // Only a list this device knows of can have a copy here: no registry, nothing to carry
        // (and no key-value store to read on every command).
        let lists = NamedLists(configuration: configuration)
        guard configuration.carriesMergedLists, FileManager.default.fileExists(atPath: lists.registryURL.path) else {
            return
        }
        guard let merged = try? lists.merged(into: configuration.storeName), !merged.isEmpty else { return }
        let carried = CarriedLists(configuration.sandbox)
        let known = carried.all()
        let survivorName = (try? lists.resolve(configuration.storeName).name) ?? configuration.storeName
        for list in merged {
            let signature = ListMerge.signature(of: list.storeName, configuration)
            let earlier = known[list.storeName]
            if let earlier, earlier.into == configuration.storeName, earlier.signature == signature { continue }
            do {
                let count = try carry(list, signature: signature, earlier: earlier, carried)
                if earlier == nil {
                    var text =
                        "the list \"\(list.name)\"\(list.createdBy.map { " (made by \($0))" } ?? "") was merged into \"\(survivorName)\""
                    text += list.removedBy.map { " by \($0)" } ?? ""
                    text +=
                        count > 0
                        ? "; \(count) of its items from this device were carried there" : "; its items are there"
                    configuration.tell(Notice(.note, text))
                    journal(event: "listMergeLearned", detail: text)
                } else if count > 0 {
                    logger.notice(
                        "carried \(count) late change(s) of the merged list \(list.storeName) into \(configuration.storeName)"
                    )
                }
            } catch {
                logger.warning(
                    "cannot carry the merged list \(list.storeName) into \(configuration.storeName): \(ErrorText.reason(error))"
                )
            }
        }
    }

    /// Opens the merged-away list's copy on this device (brought up to date as a command's is),
    /// carries it when it changed, and remembers how far. A device that never held that list has
    /// nothing of its own to carry: its peers carry theirs.
    private func carry(_ list: NamedList, signature: String, earlier: CarriedLists.Entry?, _ carried: CarriedLists)
        throws -> Int
    {
        var source = configuration
        source.storeName = list.storeName
        source.carriesMergedLists = false
        let holdsIt =
            [source.localStoreURL]
            + (current.account.map { [source.cloudStoreURL(account: $0), source.fallbackStoreURL(account: $0)] } ?? [])
        guard holdsIt.contains(where: StoreFiles.exists) else {
            try carried.record(list.storeName, into: configuration.storeName, token: 0, signature: signature)
            return 0
        }
        let coordinator = try StoreCoordinator(configuration: source, claimDevice: claimDevice)
        defer { try? coordinator.current.close() }
        try coordinator.prepareForCommand()
        let token = try coordinator.current.store.changeToken()
        var count = 0
        if earlier?.token != token || earlier?.into != configuration.storeName {
            count = try ListMerge.carry(coordinator, into: self, author: "lists merge (late)")
            if count > 0 { current.exportPending() }
        }
        try carried.record(
            list.storeName, into: configuration.storeName, token: token,
            signature: ListMerge.signature(of: list.storeName, configuration))
        return count
    }
}

/// What this device carried of each list merged into another (`<sandbox>/merged-lists.json`):
/// the survivor, the merged-away store's change token then, and the signature of its files.
/// A list absent here was never carried here: the device has not learned of its merge yet.
struct CarriedLists {
    struct Entry: Codable, Equatable {
        var into: String
        var token: Int64
        var signature: String
    }

    let url: URL

    init(_ sandbox: DeviceSandbox) {
        url = sandbox.root.appendingPathComponent("merged-lists.json")
    }

    func all() -> [String: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }

    func record(_ storeName: String, into: String, token: Int64, signature: String) throws {
        var entries = all()
        entries[storeName] = Entry(into: into, token: token, signature: signature)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(entries), to: url)
    }
}
