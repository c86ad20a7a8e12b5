import Foundation

/// What one run of the real `grocery-dude` binary did.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs the built `grocery-dude` binary as a separate process, as a user or script would.
public struct CommandRunner: Sendable {
    public let dataDirectory: String
    public let device: String
    /// Added to the environment of every run (a run's own `environment` wins).
    public let environment: [String: String]
    /// When set, the binary runs under Debian's `faketime` with this time ("+3650d",
    /// "-3650d", "@1969-12-31 23:00:00"): a device whose wall clock is wrong. The clock still
    /// runs; only the wall clock is moved (the monotonic clock that timeouts use is left alone).
    public let fakeTime: String?
    /// When set, the binary runs as this user ID (and group ID), through `setpriv`: for tests
    /// of permissions, which do not stop root.
    public let user: UInt32?

    public init(
        dataDirectory: String, device: String = "test-device", environment: [String: String] = [:],
        fakeTime: String? = nil,
        user: UInt32? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.device = device
        self.environment = environment
        self.fakeTime = fakeTime
        self.user = user
    }

    /// The same device with its wall clock at `fakeTime` (`nil`: set right).
    public func withClock(_ fakeTime: String?) -> CommandRunner {
        CommandRunner(
            dataDirectory: dataDirectory, device: device, environment: environment, fakeTime: fakeTime, user: user)
    }

    /// Where `setpriv` is installed (util-linux, in every Debian).
    public static let setpriv = "/usr/bin/setpriv"

    /// Where `faketime` is installed (`scripts/install-deps.sh` installs it).
    public static let faketime = "/usr/bin/faketime"

    /// The environment that keeps the shipped default data out of new stores, cloud ones too.
    public static let withoutDefaultData = ["GROCERY_DUDE_NO_DEFAULT_DATA": "1"]

    /// The binary beside the test bundle (`swift build` puts both in the same folder), or
    /// `GROCERY_DUDE_BIN`.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GROCERY_DUDE_BIN"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("grocery-dude"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("grocery-dude"),
            Fixtures.packageRoot.appendingPathComponent(".build/debug/grocery-dude"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    /// Runs `grocery-dude --data-dir … --device … <arguments>` and waits for it; `wrapper`
    /// (`strace -f -o FILE`) runs it, when given.
    @discardableResult
    public func run(
        _ arguments: [String], environment extra: [String: String] = [:], global: Bool = true,
        wrappedIn wrapper: [String] = []
    ) throws -> CommandResult {
        let process = try self.process(arguments, environment: extra, global: global, wrappedIn: wrapper)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so a large output cannot fill one and stall it.
        nonisolated(unsafe) var errData = Data()
        let errRead = DispatchSemaphore(value: 0)
        Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errRead.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errRead.wait()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension CommandRunner {
    /// The process of `grocery-dude --data-dir … --device … <arguments>`, not started: the
    /// device's environment, its clock and user.
    func process(
        _ arguments: [String], environment extra: [String: String] = [:], global: Bool = true,
        wrappedIn wrapper: [String] = []
    ) throws -> Process {
        let process = Process()
        var commandLine =
            wrapper + [Self.binary.path] + (global ? ["--data-dir", dataDirectory, "--device", device] : []) + arguments
        if let fakeTime {
            guard FileManager.default.isExecutableFile(atPath: Self.faketime) else { throw FakeTimeMissing() }
            commandLine = [Self.faketime, "-f", fakeTime] + commandLine
        }
        if let user {
            commandLine = [Self.setpriv, "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + commandLine
        }
        process.executableURL = URL(fileURLWithPath: commandLine[0])
        process.arguments = Array(commandLine.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        for key in [
            "GROCERY_DUDE_DEVICE", "GROCERY_DUDE_DATA_DIR", "GROCERY_DUDE_CLOUD", "GROCERY_DUDE_MODEL_VERSION",
            "GROCERY_DUDE_NO_DEFAULT_DATA", "GROCERY_DUDE_LIST", "GROCERY_DUDE_STORE_NAME",
        ] {
            environment[key] = nil
        }
        environment.merge(self.environment) { _, new in new }
        environment.merge(extra) { _, new in new }
        if fakeTime != nil { environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1" }
        process.environment = environment
        return process
    }

    /// Starts a command that keeps running (`cloud watch`), its output read as it comes.
    public func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningCommand {
        try RunningCommand(try process(arguments, environment: extra))
    }
}

/// A test needs `faketime` and it is not installed.
public struct FakeTimeMissing: Error, CustomStringConvertible {
    public var description: String {
        "\(CommandRunner.faketime) is missing: run scripts/install-deps.sh (Debian's faketime package)"
    }
}

/// A command that should have succeeded and did not: which device, which arguments, what it said.
public struct CommandFailure: Error, CustomStringConvertible {
    public let device: String
    public let arguments: [String]
    public let result: CommandResult

    public var description: String { "\(device) \(arguments) exited \(result.status): \(result.stderr)" }
}

extension CommandRunner {
    /// Runs a command that must succeed and returns what it printed.
    ///
    /// - Throws: ``CommandFailure`` when it exits with another status than 0.
    @discardableResult
    public func output(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let result = try run(arguments, environment: environment)
        guard result.status == 0 else { throw CommandFailure(device: device, arguments: arguments, result: result) }
        return result.stdout
    }

    /// The names of the items `item ls --json` lists, sorted; `global` goes before the
    /// subcommand (`--list NAME`).
    public func itemNames(_ global: [String] = []) throws -> [String] {
        try items(global).map { $0["name"] as! String }.sorted()
    }

    /// A household: devices "kitchen" (Anna's) and "phone" (Ben's) of the data folder
    /// `dataDirectory`, cloud sync on in `cloud` (made when missing), each with its person set.
    public static func household(in dataDirectory: String, cloud: String) throws -> (
        kitchen: CommandRunner, phone: CommandRunner
    ) {
        try FileManager.default.createDirectory(atPath: cloud, withIntermediateDirectories: true)
        let kitchen = device("kitchen", in: dataDirectory, cloud: cloud)
        let phone = device("phone", in: dataDirectory, cloud: cloud)
        for (device, person) in [(kitchen, "Anna"), (phone, "Ben")] {
            try device.output(["cloud", "enable", "--no-merge"])
            try device.output(["person", "set", person])
        }
        return (kitchen, phone)
    }

    /// Device `name` of the data folder `dataDirectory`, without the default data, on the cloud
    /// folder `cloud`.
    public static func device(_ name: String, in dataDirectory: String, cloud: String) -> CommandRunner {
        CommandRunner(
            dataDirectory: dataDirectory, device: name,
            environment: withoutDefaultData.merging(["GROCERY_DUDE_CLOUD": cloud]) { _, new in new })
    }

    /// The names of the lists `lists ls --json` shows, sorted.
    public func listNames() throws -> [String] {
        let rows =
            try JSONSerialization.jsonObject(with: Data(try output(["lists", "ls", "--json"]).utf8)) as! [[String: Any]]
        return rows.map { $0["name"] as! String }.sorted()
    }

    /// `item ls --json`, parsed; `global` goes before the subcommand (`--cloud DIR`).
    public func items(_ global: [String] = []) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try output(global + ["item", "ls", "--json"]).utf8))
            as! [[String: Any]]
    }
}
