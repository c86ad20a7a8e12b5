import ArgumentParser
import Foundation
import GroceryModel
import Logging
import Ubiquity

/// The options every command takes, before the subcommand: which device, where its data is.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("The device (peer) to act as. Env: GROCERY_DUDE_DEVICE; default: the host name.",
                               valueName: "name"))
    var device: String?

    @Option(name: .customLong("data-dir"),
            help: ArgumentHelp("Where devices keep their stores. Env: GROCERY_DUDE_DATA_DIR; default: $XDG_DATA_HOME/grocery-dude.",
                               valueName: "dir"))
    var dataDir: String?

    @Option(help: ArgumentHelp("The shared cloud folder. Env: GROCERY_DUDE_CLOUD; default: <data-dir>/Cloud.",
                               valueName: "dir"))
    var cloud: String?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("trace, debug, info, notice, warning, error or critical. Env: GROCERY_DUDE_LOG_LEVEL; default: info.",
                               valueName: "level"))
    var logLevel: String?

    @Option(name: .customLong("model-version"),
            help: ArgumentHelp("Run as an older model version (1 or 2), to test version siloing. Env: GROCERY_DUDE_MODEL_VERSION.",
                               valueName: "n"))
    var modelVersion: Int?

    @Option(name: .customLong("store-name"),
            help: ArgumentHelp("The store's name (the ubiquitous content name): no periods. Env: GROCERY_DUDE_STORE_NAME; default: GroceryDude.",
                               valueName: "name"))
    var storeName: String?

    @Flag(name: .customLong("no-default-data"),
          help: "On a device's first launch, start with an empty store instead of the default groceries.")
    var noDefaultData = false

    public init() {}

    // MARK: - Resolved settings

    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    func resolvedDevice() -> String {
        if let device { return device }
        if let device = environment["GROCERY_DUDE_DEVICE"], !device.isEmpty { return device }
        return ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
    }

    func resolvedDataDirectory() -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir, isDirectory: true) }
        if let dir = environment["GROCERY_DUDE_DATA_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir, isDirectory: true) }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("grocery-dude", isDirectory: true)
    }

    func resolvedCloudDirectory() -> URL {
        if let cloud { return URL(fileURLWithPath: cloud, isDirectory: true) }
        if let dir = environment["GROCERY_DUDE_CLOUD"], !dir.isEmpty { return URL(fileURLWithPath: dir, isDirectory: true) }
        return resolvedDataDirectory().appendingPathComponent("Cloud", isDirectory: true)
    }

    /// The store name, checked as iCloud checked ubiquitous content names.
    func resolvedStoreName() throws -> String {
        let name = storeName ?? environment["GROCERY_DUDE_STORE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? GroceryStore.defaultStoreName
        guard !name.isEmpty, !name.contains("."), !name.contains("/"), !name.hasPrefix("~"),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CloudError.invalidStoreName(name)
        }
        return name
    }

    func resolvedModelVersion() throws -> Int {
        var version = modelVersion
        if version == nil, let text = environment["GROCERY_DUDE_MODEL_VERSION"], !text.isEmpty {
            guard let number = Int(text) else { throw ValidationError("GROCERY_DUDE_MODEL_VERSION must be a number, not \(text.debugDescription)") }
            version = number
        }
        let resolved = version ?? GrocerySchema.currentVersion
        guard (1...GrocerySchema.currentVersion).contains(resolved) else {
            throw ValidationError("--model-version must be from 1 to \(GrocerySchema.currentVersion)")
        }
        return resolved
    }

    func resolvedLogLevel() throws -> Logger.Level {
        let text = logLevel ?? environment["GROCERY_DUDE_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("unknown log level \(text.debugDescription); use trace, debug, info, notice, warning, error or critical")
        }
        return level
    }

    // MARK: - Opening the device

    /// Prepares the device's sandbox and sends logs to its file.
    func openSandbox(command: String) throws -> (DeviceSandbox, Logger) {
        let sandbox = try DeviceSandbox(dataDirectory: resolvedDataDirectory(), device: resolvedDevice())
        try sandbox.prepare()
        let logger = try LogSetup.bootstrap(file: sandbox.logFileURL, level: resolvedLogLevel(), device: sandbox.device)
        logger.debug("\(command)")
        return (sandbox, logger)
    }

    /// Opens the device's store: its cloud store when cloud sync is enabled (importing what other
    /// peers wrote first, and exporting every save as it is made), else its local store.
    func openDevice(command: String) throws -> OpenDevice {
        let (sandbox, logger) = try openSandbox(command: command)
        let settings = try DeviceSettings.load(from: sandbox)
        let peer = try sandbox.peerID().description
        if settings.cloudEnabled, let account = settings.account {
            let device = try openCloudStore(sandbox: sandbox, account: account, peer: peer, logger: logger)
            device.exportPending()  // saves an earlier export could not write
            device.importPending()
            return device
        }
        let store = try GroceryStore(
            path: sandbox.localStoreURL(storeName: resolvedStoreName()).path,
            modelVersion: resolvedModelVersion(), defaultData: !noDefaultData, peer: peer, logger: logger)
        return OpenDevice(sandbox: sandbox, store: store, sync: nil, logger: logger)
    }

    /// The device's store for an account's cloud content, linked to the cloud folder.
    func openCloudStore(sandbox: DeviceSandbox, account: String, peer: String, logger: Logger) throws -> OpenDevice {
        let url = sandbox.cloudStoreURL(account: account, storeName: try resolvedStoreName())
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw SandboxError.unwritable(path: url.deletingLastPathComponent().path, reason: (error as NSError).localizedDescription)
        }
        let store = try GroceryStore(path: url.path, modelVersion: resolvedModelVersion(), defaultData: false, peer: peer, logger: logger)
        let layout = try CloudLayout(cloud: resolvedCloudDirectory(), account: account,
                                     storeName: try resolvedStoreName(), modelVersion: store.modelVersion)
        let sync = CloudSync(store: store.objects, layout: layout, device: sandbox.device, logger: logger)
        let device = OpenDevice(sandbox: sandbox, store: store, sync: sync, logger: logger)
        if try !layout.isReachable || DeviceSettings.load(from: sandbox).offline {
            logger.info("offline: \(layout.isReachable ? "cloud offline is set" : "the cloud folder \(layout.cloud.path) is not reachable")")
        }
        store.objects.observeSaves { _ in device.exportPending() }
        return device
    }
}

/// A device ready to use: its sandbox, its store, its link to the cloud, its logger.
struct OpenDevice: Sendable {
    let sandbox: DeviceSandbox
    let store: GroceryStore
    let sync: CloudSync?
    let logger: Logger

    /// The device's link to the cloud, for the commands that need one.
    func requireSync() throws -> CloudSync {
        guard let sync else { throw ValidationErrorMessage("cloud sync is disabled on this device: grocery-dude cloud enable") }
        return sync
    }

    /// Whether the device works without the cloud now: `cloud offline`, or a cloud folder that
    /// is missing, unreadable or unmounted. Read fresh each time: another terminal may change it.
    var isOffline: Bool {
        guard let sync else { return true }
        return !sync.layout.isReachable || ((try? DeviceSettings.load(from: sandbox))?.offline ?? false)
    }

    /// Exports pending saves. A failure is a warning: the saves wait in the outbox for the next
    /// export, nothing is lost. Offline, they simply wait.
    func exportPending() {
        guard let sync, !isOffline else { return }
        do {
            try sync.exportPending()
        } catch {
            let reason = ErrorText.reason(error)
            logger.warning("export failed: \(reason)")
            FileHandle.standardError.write(Data(
                "warning: cannot write to the cloud folder \(sync.layout.cloud.path): \(reason); the change is kept and will be exported later\n".utf8))
        }
    }

    /// Imports what other peers wrote. Problems are logged and reported, never fatal.
    @discardableResult
    func importPending() -> ImportReport? {
        guard let sync, !isOffline else { return nil }
        do {
            let report = try sync.importPending()
            for line in report.waiting + report.rejected { logger.warning("\(line)") }
            return report
        } catch {
            logger.warning("import failed: \(ErrorText.reason(error))")
            return nil
        }
    }
}
