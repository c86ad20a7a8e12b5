import Foundation

/// Two Syncthing instances on this host, each with its own copy of one shared folder — two
/// machines — started by `scripts/syncthing-pair.sh up` and stopped when the value goes away.
///
/// While it runs, every name in both copies is watched (every 20 ms) for Syncthing's conflict
/// copies (`….sync-conflict-…`) and its temporary files (`.syncthing.….tmp`, `~syncthing~…`).
public final class SyncthingPair: @unchecked Sendable {
    /// Where Debian's package puts it (`scripts/install-deps.sh` installs it), or `nil`.
    public static let executable: String? = ["/usr/bin/syncthing", "/usr/local/bin/syncthing"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    public static let script = Fixtures.packageRoot.appendingPathComponent("scripts/syncthing-pair.sh")

    /// The folder holding both machines (`a/`, `b/`).
    public let directory: TemporaryDirectory
    /// Machine a's copy of the shared folder, and machine b's.
    public let a: URL, b: URL

    private let lock = NSLock()
    private var conflictNames: Set<String> = []
    private var temporaryNames: Set<String> = []
    private var watching = true
    private var watcher: Thread?

    /// Starts the pair on `SYNCTHING_PAIR_PORT` when set, otherwise on ports derived from this
    /// process's ID (engineers' test runs on one machine do not meet), trying further ports
    /// while the chosen ones are in use.
    public init() throws {
        directory = TemporaryDirectory("syncthing-pair")
        a = directory.file("a/Cloud")
        b = directory.file("b/Cloud")
        let fixed = ProcessInfo.processInfo.environment["SYNCTHING_PAIR_PORT"]
        var port = fixed.flatMap(Int.init) ?? 23000 + Int(getpid() % 2000) * 4
        var attempt = 0
        while true {
            let result = try Self.script(["up", directory.path], port: port, folder: directory)
            if result.status == 0 { break }
            // Whatever it started before it failed goes too.
            _ = try? Self.script(["down", directory.path], port: port, folder: directory)
            attempt += 1
            guard fixed == nil, attempt < 5, result.stderr.contains("in use") else {
                throw SyncthingPairFailure(message: "syncthing-pair.sh up exited \(result.status): \(result.stderr)")
            }
            port += 4
        }
        self.port = port
        let thread = Thread { [weak self] in
            _ = try? Poll.until(timeout: .infinity, "the pair going away") { !(self?.scan() ?? false) }
        }
        watcher = thread
        thread.start()
    }

    /// The base port the pair runs on.
    public private(set) var port = 0

    private var stopped = false

    /// Stops both instances and waits for them: call it when done (`defer { pair.stop() }`).
    /// The last reference may go on the watcher's thread, where a test run ending at once
    /// would cut `deinit` short; `SYNCTHING_PAIR_OWNER` stops the pair even then, seconds later.
    public func stop() {
        let first = lock.withLock {
            defer {
                watching = false
                stopped = true
            }
            return !stopped
        }
        if first { _ = try? Self.script(["down", directory.path], port: port, folder: directory) }
    }

    deinit { stop() }

    /// Names of conflict copies seen in either copy since the pair started.
    public var conflicts: Set<String> { lock.withLock { conflictNames } }
    /// Names of Syncthing's temporary files seen in either copy since the pair started.
    public var temporaries: Set<String> { lock.withLock { temporaryNames } }

    /// Whether `name` is one of Syncthing's temporary files.
    public static func isTemporary(_ name: String) -> Bool {
        (name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp")) || name.hasPrefix("~syncthing~")
    }

    /// Every file in a copy (path relative to it → size), without Syncthing's own
    /// (`.stfolder`, temporary files).
    public func files(_ copy: URL) -> [String: Int] {
        var files: [String: Int] = [:]
        let manager = FileManager.default
        for path in manager.subpaths(atPath: copy.path) ?? [] {
            let name = (path as NSString).lastPathComponent
            guard !path.hasPrefix(".stfolder"), !Self.isTemporary(name),
                let attributes = try? manager.attributesOfItem(atPath: copy.path + "/" + path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            files[path] = (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
        return files
    }

    /// Waits until both copies hold the same files, twice in a row 200 ms apart, with no
    /// temporary file in either.
    ///
    /// - Throws: ``PollTimeout`` naming the difference after `timeout` seconds.
    public func settle(timeout: TimeInterval = 30) throws {
        var sameBefore = false
        try Poll.until(
            timeout: timeout, every: 0.2,
            reading: { (a: files(a), b: files(b)) },
            { files in
                let onlyA = files.a.filter { files.b[$0.key] != $0.value }.keys.sorted()
                let onlyB = files.b.filter { files.a[$0.key] != $0.value }.keys.sorted()
                return
                    "the two copies the same, without temporary files: only or other size in a: \(onlyA), "
                    + "in b: \(onlyB)"
            }
        ) { files in
            let busy = [a, b].contains { copy in
                (FileManager.default.subpaths(atPath: copy.path) ?? []).contains {
                    Self.isTemporary(($0 as NSString).lastPathComponent)
                }
            }
            let same = files.a == files.b && !busy
            defer { sameBefore = same }
            return same && sameBefore
        }
    }

    /// One look at both copies; `false` once the pair is going away.
    private func scan() -> Bool {
        guard lock.withLock({ watching }) else { return false }
        var conflicts: [String] = []
        var temporaries: [String] = []
        for copy in [a, b] {
            for path in FileManager.default.subpaths(atPath: copy.path) ?? [] {
                let name = (path as NSString).lastPathComponent
                if name.contains(".sync-conflict-") { conflicts.append(path) }
                if Self.isTemporary(name) { temporaries.append(name) }
            }
        }
        lock.withLock {
            conflictNames.formUnion(conflicts)
            temporaryNames.formUnion(temporaries)
        }
        return true
    }

    /// Runs `syncthing-pair.sh` with its output in files of `folder`, not pipes: a pipe's write
    /// end leaks into whatever another test starts meanwhile (a tmux server, say), and reading
    /// it to its end would wait for that process too.
    private static func script(_ arguments: [String], port: Int, folder: TemporaryDirectory) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SYNCTHING_PAIR_PORT"] = String(port)
        // Stopped with this process, even when the test run is interrupted.
        environment["SYNCTHING_PAIR_OWNER"] = String(getpid())
        process.environment = environment
        let out = folder.file("pair-\(arguments[0]).out")
        let err = folder.file("pair-\(arguments[0]).err")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

/// The pair could not start, or its copies did not agree in time.
public struct SyncthingPairFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
