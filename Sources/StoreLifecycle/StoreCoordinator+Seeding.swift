import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// What refuses or postpones a seed.
public enum SeedError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case inProgress
    case notInCloud
    case notAStore(String)

    public var description: String {
        switch self {
        case .inProgress: "Seed already in progress"
        case .notInCloud: "cloud sync is disabled on this device"
        case .notAStore(let path): "\(path) is not a Grocery Dude store"
        }
    }

    public var errorDescription: String? { description }
}

/// "Merge with Cloud?": a store's data (the local store, or a store kept aside by a start over)
/// moves into the account's cloud store. Crash-safe: the copy is committed in batches that a
/// second run finds again; the seeded store is removed only once the copy is exported; the
/// device settings remember the seed until then, so the next command or app finishes it.
extension StoreCoordinator {
    /// The name of the shipped default data's flag in the synced key-value store.
    public static let seededDataKey = "SEEDED_DATA"
    /// The name the app's files of the synced key-value store carry (``KeyValueStore``).
    public static let keyValueFormat = "grocery-dude-kv"

    /// The key that says a store of the account has its default data: `SEEDED_DATA` for the
    /// default list (as Core Data's apps named it), `SEEDED_DATA.<store>` for every other list,
    /// so that each list is seeded once, on its own.
    public static func seededDataKey(storeName: String) -> String {
        storeName == GroceryStore.defaultStoreName ? seededDataKey : "\(seededDataKey).\(storeName)"
    }

    /// Remembers `source` as the store to seed from, then seeds (now, if the cloud store is
    /// set up; else as soon as it is). Its progress is told to the subscribers
    /// (``StoreMessage/seedProgress(done:total:)``), on this thread.
    public func startSeed(from source: URL) throws -> SeedResult {
        guard StoreChoice(try DeviceSettings.load(from: configuration.sandbox)) != .local else {
            throw SeedError.notInCloud
        }
        try rememberSeed(from: source)
        return try resumeSeed() ?? SeedResult()
    }

    /// Remembers `source` as the store to seed from, without seeding yet: the running app
    /// does it in the background (``resumeSeedInBackground(finished:)``), and a crash
    /// before it finishes leaves it for the next start.
    ///
    /// - Throws: ``SeedError/notAStore(_:)`` when `source` is not a store.
    public func rememberSeed(from source: URL) throws {
        try Self.rememberSeed(from: source, configuration)
    }

    static func rememberSeed(from source: URL, _ configuration: StoreConfiguration) throws {
        guard ObjectStore.isStore(at: source.path) else { throw SeedError.notAStore(source.path) }
        var settings = try DeviceSettings.load(from: configuration.sandbox)
        settings.seedSource = source.path
        try settings.save(to: configuration.sandbox)
    }

    /// The store a seed copies from, while one is remembered.
    public var pendingSeedSource: String? {
        (try? DeviceSettings.load(from: configuration.sandbox))?.seedSource
    }

    /// Finishes a seed the settings remember, if any. Its progress is told to the subscribers
    /// (``StoreMessage/seedProgress(done:total:)``), on this thread.
    @discardableResult
    public func resumeSeed() throws -> SeedResult? {
        guard let path = try DeviceSettings.load(from: configuration.sandbox).seedSource else { return nil }
        let result = try seed(from: URL(fileURLWithPath: path), into: current)
        if result.finished { try Self.forgetSeed(configuration.sandbox) }
        return result
    }

    /// The seed is over: nothing to resume.
    static func forgetSeed(_ sandbox: DeviceSandbox) throws {
        var settings = try DeviceSettings.load(from: sandbox)
        settings.seedSource = nil
        try settings.save(to: sandbox)
    }

    /// Finishes a seed the settings remember on a background thread, for the running app: each
    /// batch is a save, so the list refreshes as it goes; its progress is told to the
    /// subscribers (``StoreMessage/seedProgress(done:total:)``) and `finished` is called, on
    /// that thread. A store change meanwhile makes it fail harmlessly; the next start resumes it.
    public func resumeSeedInBackground(finished: @escaping @Sendable (Result<SeedResult, any Error>) -> Void) {
        guard let path = (try? DeviceSettings.load(from: configuration.sandbox))?.seedSource, current.role == .cloud
        else { return }
        let target = current
        let sandbox = configuration.sandbox
        Thread.detachNewThread { [self] in
            do {
                let result = try seed(from: URL(fileURLWithPath: path), into: target)
                if result.finished { try Self.forgetSeed(sandbox) }
                finished(.success(result))
            } catch {
                finished(.failure(error))
            }
        }
    }

    /// Copies `source` into the cloud store, exports, removes `source` (with its `-wal` and
    /// `-shm`), then deduplicates. Tells its progress, on this thread.
    ///
    /// - Throws: ``SeedError/inProgress`` while another seed of this device runs.
    func seed(from source: URL, into target: DeviceStore) throws -> SeedResult {
        let lock = try SeedLock(sandbox: configuration.sandbox)
        defer { withExtendedLifetime(lock) {} }
        var result = SeedResult()
        guard target.role == .cloud, let sync = target.sync else {
            result.waiting = "the cloud store is not set up yet (offline); the merge finishes once it is"
            return result
        }
        if StoreFiles.exists(source) {
            let store = try configuration.openStore(at: source)
            let seeder = StoreSeeder(source: store.objects, target: target.store.objects)
            result.objects = SeedCounts(
                try seeder.run(author: "seed") { done, total in
                    tell(.seedProgress(done: done, total: total))
                    if done < total { FaultInjection.crash(at: FaultInjection.midSeed) }
                })
            try store.close()
            logger.info("seeded the cloud store from \(source.path): \(result.objectsText)")
            target.exportPending()
            let pending = try sync.pendingExports()
            guard pending == 0 else {
                result.waiting =
                    "\(pending) change(s) wait to be exported; \(source.lastPathComponent) is removed once they are"
                return result
            }
        }
        // Exported: the seeded store's data is in the cloud. The main file first, so that a
        // crash leaves only a journal no one reads, removed by the next run.
        let manager = FileManager.default
        if manager.fileExists(atPath: source.path) { try manager.removeItem(at: source) }
        FaultInjection.crash(at: FaultInjection.midSeedRemoval)
        try StoreFiles.remove(source)
        result.finished = true
        result.deduplication = try target.store.mergeDuplicates()
        logger.info("removed \(source.path) after seeding; deduplicated \(result.deduplication.mergedCount) object(s)")
        return result
    }
}

/// Held while a seed runs on the device, so that a second one is refused.
final class SeedLock {
    private let fd: Int32

    init(sandbox: DeviceSandbox) throws {
        let path = sandbox.root.appendingPathComponent("seed.lock").path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.unwritable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw SeedError.inProgress
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
