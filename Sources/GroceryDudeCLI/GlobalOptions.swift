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

    /// Prepares the device's sandbox, sends logs to its file, and opens its local store.
    func openDevice(command: String) throws -> OpenDevice {
        let sandbox = try DeviceSandbox(dataDirectory: resolvedDataDirectory(), device: resolvedDevice())
        try sandbox.prepare()
        let logger = try LogSetup.bootstrap(file: sandbox.logFileURL, level: resolvedLogLevel(), device: sandbox.device)
        logger.debug("\(command)")
        let store = try GroceryStore(
            path: sandbox.localStoreURL(storeName: GroceryStore.defaultStoreName).path,
            modelVersion: resolvedModelVersion(),
            defaultData: !noDefaultData,
            logger: logger)
        return OpenDevice(sandbox: sandbox, store: store, logger: logger)
    }
}

/// A device ready to use: its sandbox, its store, its logger.
struct OpenDevice {
    let sandbox: DeviceSandbox
    let store: GroceryStore
    let logger: Logger
}
