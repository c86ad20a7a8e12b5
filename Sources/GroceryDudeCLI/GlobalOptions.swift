import ArgumentParser
import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// The options every command takes, before the subcommand: which device, where its data is.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "The device (peer) to act as. Env: GROCERY_DUDE_DEVICE; default: the host name.",
            valueName: "name"),
        completion: CompletionValues.deviceNames)
    var device: String?

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "Where devices keep their stores. Env: GROCERY_DUDE_DATA_DIR; default: $XDG_DATA_HOME/grocery-dude.",
            valueName: "dir"),
        completion: .directory)
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "The shared cloud folder. Env: GROCERY_DUDE_CLOUD; default: <data-dir>/Cloud.",
            valueName: "dir"),
        completion: .directory)
    var cloud: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical. Env: GROCERY_DUDE_LOG_LEVEL; default: info.",
            valueName: "level"),
        completion: CompletionValues.logLevels)
    var logLevel: String?

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp(
            "Run as an older model version (1 or 2), to test version siloing. Env: GROCERY_DUDE_MODEL_VERSION.",
            valueName: "n"),
        completion: CompletionValues.modelVersions)
    var modelVersion: Int?

    @Option(
        name: .customLong("store-name"),
        help: ArgumentHelp(
            "The store's name (the ubiquitous content name): no periods. Env: GROCERY_DUDE_STORE_NAME; default: GroceryDude.",
            valueName: "name"))
    var storeName: String?

    @Option(
        help: ArgumentHelp(
            "The list to act on, by its name (grocery-dude lists ls). Env: GROCERY_DUDE_LIST; default: the default list.",
            valueName: "name"),
        completion: CompletionValues.listNames)
    var list: String?

    @Flag(
        name: .customLong("no-default-data"),
        help:
            "Start new stores empty instead of with the default groceries (local store, and an account's first cloud store). Env: GROCERY_DUDE_NO_DEFAULT_DATA=1."
    )
    var noDefaultData = false

    @Flag(
        name: .customLong("no-mouse"),
        help:
            "The full-screen app leaves the mouse to the terminal (selecting text as usual). Env: GROCERY_DUDE_NO_MOUSE=1."
    )
    var noMouse = false

    public init() {}

    // MARK: - Resolved settings

    private var environment: EnvironmentVariables { EnvironmentVariables() }

    func resolvedDevice() -> String {
        if let device { return device }
        if let device = environment["GROCERY_DUDE_DEVICE"], !device.isEmpty { return device }
        return ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
    }

    func resolvedDataDirectory() -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir, isDirectory: true) }
        if let dir = environment["GROCERY_DUDE_DATA_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("grocery-dude", isDirectory: true)
    }

    func resolvedCloudDirectory() -> URL {
        if let cloud { return URL(fileURLWithPath: cloud, isDirectory: true) }
        if let dir = environment["GROCERY_DUDE_CLOUD"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        return resolvedDataDirectory().appendingPathComponent("Cloud", isDirectory: true)
    }

    /// The store name, checked as iCloud checked ubiquitous content names, in NFC.
    func resolvedStoreName() throws -> String {
        let name =
            storeName ?? environment["GROCERY_DUDE_STORE_NAME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? GroceryStore.defaultStoreName
        return try CloudNames.checkedStore(name)
    }

    var wantsNoDefaultData: Bool { noDefaultData || environment["GROCERY_DUDE_NO_DEFAULT_DATA"] == "1" }

    /// Whether the app takes the mouse: unless `--no-mouse` or `GROCERY_DUDE_NO_MOUSE=1`.
    var wantsMouse: Bool { !noMouse && environment["GROCERY_DUDE_NO_MOUSE"] != "1" }

    func resolvedModelVersion() throws -> Int {
        var version = modelVersion
        if version == nil, let text = environment["GROCERY_DUDE_MODEL_VERSION"], !text.isEmpty {
            guard let number = Int(text) else {
                throw ValidationError("GROCERY_DUDE_MODEL_VERSION must be a number, not \(text.debugDescription)")
            }
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
            throw ValidationError(
                "unknown log level \(text.debugDescription); use trace, debug, info, notice, warning, error or critical"
            )
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

    /// Where the device's stores are, for the store layer.
    func storeConfiguration(sandbox: DeviceSandbox, logger: Logger, command: String) throws -> StoreConfiguration {
        var configuration = try storeConfigurationIgnoringList(sandbox: sandbox, logger: logger, command: command)
        if let list = requestedList() {
            let listStore = try NamedLists(configuration: configuration).resolve(list).storeName
            let storeNameGiven = storeName != nil || environment["GROCERY_DUDE_STORE_NAME"].map { !$0.isEmpty } == true
            if storeNameGiven, listStore != configuration.storeName {
                throw ValidationError(
                    "--list \(list.debugDescription) and --store-name \(configuration.storeName.debugDescription) name different stores; give one"
                )
            }
            configuration.storeName = listStore
        }
        return configuration
    }

    /// The device's stores with the store named by `--store-name` (or the default), whatever
    /// `--list` says: what the lists themselves are read from.
    func storeConfigurationIgnoringList(sandbox: DeviceSandbox, logger: Logger, command: String) throws
        -> StoreConfiguration
    {
        var configuration = StoreConfiguration(
            sandbox: sandbox, cloud: resolvedCloudDirectory(), storeName: try resolvedStoreName(),
            modelVersion: try resolvedModelVersion(), defaultData: !wantsNoDefaultData,
            peer: try sandbox.peerID(), process: command, logger: logger)
        configuration.mayCreateCloudFolder = cloud == nil && environment["GROCERY_DUDE_CLOUD"] == nil
        configuration.onNotice = { notice in FileHandle.standardError.write(Data("\(notice)\n".utf8)) }
        configuration.advice = ErrorAdvice.device
        configuration.personOverride = try requestedPerson()
        return configuration
    }

    /// The person `GROCERY_DUDE_PERSON` names for this command, checked by a name's rules.
    ///
    /// - Throws: ``ValidationErrorMessage`` saying what is wrong with it: nothing is done.
    func requestedPerson() throws -> String? {
        guard let raw = environment["GROCERY_DUDE_PERSON"], !raw.isEmpty else { return nil }
        do {
            return try DevicePerson.checked(raw)
        } catch {
            throw ValidationErrorMessage("GROCERY_DUDE_PERSON: \(ErrorText.reason(error))")
        }
    }

    /// The list named by `--list` or `GROCERY_DUDE_LIST`, if any.
    func requestedList() -> String? {
        list ?? environment["GROCERY_DUDE_LIST"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Opens the store the device's settings ask for: its local store, or its cloud store
    /// (the fallback store until that is set up). With `prepare`, the device is brought up to
    /// date first: the one-time setup finished when online, a start over noticed, what other
    /// peers wrote imported and what waited exported.
    ///
    /// - Parameters:
    ///   - storeName: another list's store than the one `--list` names (a command that goes
    ///     through every list).
    ///   - claim: the claim on the device this process already has (a command that opens several
    ///     lists holds the device once, for all of them).
    func openDevice(command: String, prepare: Bool = true, storeName: String? = nil, claim existing: DeviceClaim? = nil)
        throws -> OpenDevice
    {
        let (sandbox, logger) = try openSandbox(command: command)
        let claim = existing ?? DeviceClaim(sandbox: sandbox, command: "grocery-dude \(command)")
        var configuration =
            try storeName.map { _ in
                try storeConfigurationIgnoringList(sandbox: sandbox, logger: logger, command: command)
            }
            ?? storeConfiguration(sandbox: sandbox, logger: logger, command: command)
        if let storeName { configuration.storeName = storeName }
        configuration.runsOneCommand = true
        let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: claim.take)
        // Progress is for a person watching a terminal; scripts get the result only.
        if isatty(STDERR_FILENO) == 1 {
            coordinator.subscribe { message in
                if case .seedProgress(let done, let total) = message {
                    FileHandle.standardError.write(Data("Merging with the cloud: \(done)/\(total)\n".utf8))
                }
            }
        }
        if prepare { try coordinator.prepareForCommand() }
        return OpenDevice(coordinator: coordinator, claim: claim)
    }
}

/// The device lock, taken by a command only when it needs the device to itself (the fallback
/// store, moving a store), and held until the command ends. The running app holds it for as
/// long as it runs.
final class DeviceClaim: @unchecked Sendable {
    private let sandbox: DeviceSandbox
    private let command: String
    private var lock: DeviceLock?

    init(sandbox: DeviceSandbox, command: String) {
        self.sandbox = sandbox
        self.command = command
    }

    /// Whether this process holds the device now, taking it if free.
    func take() -> Bool {
        if lock == nil { lock = try? DeviceLock(sandbox: sandbox, command: command) }
        return lock != nil
    }
}

/// A device ready for a command: the store it runs on, through its coordinator.
struct OpenDevice {
    let coordinator: StoreCoordinator
    let claim: DeviceClaim

    var sandbox: DeviceSandbox { coordinator.configuration.sandbox }
    var store: GroceryStore { coordinator.current.store }
    var sync: CloudLink? { coordinator.current.cloudLink }
    var logger: Logger { coordinator.configuration.logger }
    var isOffline: Bool { coordinator.current.isOffline }

    /// The device's link to the cloud, for the commands that need one.
    func requireSync() throws -> CloudLink {
        guard let sync else {
            if coordinator.current.role == .fallback {
                if let reason = coordinator.configuration.cloudFolderProblem {
                    throw ValidationErrorMessage(
                        "\(reason); until then the device works offline (Using local storage: 1) and keeps its changes")
                }
                if let problem = coordinator.preparation.setupProblem {
                    throw ValidationErrorMessage(
                        "the cloud store could not be set up (\(problem)); until it is, the device keeps its changes in the fallback store (Using local storage: 1)"
                    )
                }
                throw ValidationErrorMessage(
                    "the cloud store is not set up yet (Using local storage: 1): the device is offline; grocery-dude cloud online"
                )
            }
            throw ValidationErrorMessage("cloud sync is disabled on this device: grocery-dude cloud enable")
        }
        return sync
    }
}
