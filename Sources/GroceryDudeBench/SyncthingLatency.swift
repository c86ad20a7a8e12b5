import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How long a change takes to reach the other machine through Syncthing, next to how long
/// Syncthing takes to carry a plain file of the same size, in the same run: two machines from
/// `scripts/syncthing-pair.sh`, a device on each (the real binary built beside the bench).
///
/// A change: from the start of `item add` on machine a until the device on machine b, kept in
/// sync as the running app keeps it (`cloud watch --json`: inotify, then an import), says it
/// imported the change. The figure is split into the add, the log's carriage (from the end of the
/// add to its arrival in b's copy, seen by a thread that looks every millisecond) and the import
/// (from the arrival to the watcher's line). A plain file: written into a's copy of the folder (to
/// a temporary name, then renamed, as the app writes), from then until it is present in b's copy.
/// Runs alternate; the medians are printed. Target: the change within Syncthing's own time + 50 ms.
enum SyncthingLatency {
    static let target = 50.0

    static func run(folder: URL, runs: Int) throws {
        let binary = try DepartedPeers.grocerydude()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/syncthing-pair.sh")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchFailure("\(script.path) not found: run the bench from the project's build")
        }
        let pair = folder.appendingPathComponent("pair")
        let up = try shell([script.path, "up", pair.path])
        guard up.status == 0 else { throw BenchFailure("syncthing-pair.sh up failed: \(up.errors)") }
        defer { _ = try? shell([script.path, "down", pair.path]) }
        let kitchen = Machine(
            binary: binary, data: pair.appendingPathComponent("a/data"), cloud: pair.appendingPathComponent("a/Cloud"),
            device: "kitchen")
        let phone = Machine(
            binary: binary, data: pair.appendingPathComponent("b/data"), cloud: pair.appendingPathComponent("b/Cloud"),
            device: "phone")
        try kitchen.run(["cloud", "enable"])
        try phone.run(["cloud", "enable"])
        let watcher = try Watcher(phone)
        defer { watcher.stop() }
        try kitchen.run(["item", "add", "Warm-up"])
        _ = try watcher.nextImport(after: GroceryDudeBench.now() - 60, timeout: 30)

        var appTimes: [Double] = []
        var plainTimes: [Double] = []
        var sizes: [Int] = []
        var addTimes: [Double] = []
        var carryTimes: [Double] = []
        var importTimes: [Double] = []
        for index in 1...runs {
            // The change, from the moment `item add` starts on a until b has imported it.
            settle()
            let name = "Change \(index)"
            let before = Set(logs(in: phone.cloud))
            let arrival = Arrival(folder: phone.cloud, known: before)
            let started = GroceryDudeBench.now()
            try kitchen.run(["item", "add", name])
            let added = GroceryDudeBench.now()
            let landed = try arrival.wait(timeout: 30)
            let seen = try watcher.nextImport(after: started, timeout: 30)
            appTimes.append((seen - started) * 1000)
            addTimes.append((added - started) * 1000)
            carryTimes.append((landed - added) * 1000)
            importTimes.append(max(0, seen - landed) * 1000)
            let size = try newestLogSize(in: kitchen.cloud)
            sizes.append(size)

            // A plain file of the same size.
            settle()
            let plain = "plain-\(index).bin"
            let temporary = kitchen.cloud.appendingPathComponent(".plain-\(index).tmp")
            let fileStarted = GroceryDudeBench.now()
            try Data(repeating: UInt8(ascii: "x"), count: size).write(to: temporary)
            guard rename(temporary.path, kitchen.cloud.appendingPathComponent(plain).path) == 0 else {
                throw BenchFailure("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
            }
            let target = phone.cloud.appendingPathComponent(plain).path
            let deadline = fileStarted + 30
            while access(target, F_OK) != 0 {
                guard GroceryDudeBench.now() < deadline else {
                    throw BenchFailure("the plain file did not arrive within 30 s")
                }
                usleep(1000)
            }
            plainTimes.append((GroceryDudeBench.now() - fileStarted) * 1000)
        }
        func median(_ values: [Double]) -> Double { GroceryDudeBench.percentile(values, 0.5) }
        let app = median(appTimes)
        let plain = median(plainTimes)
        let size = median(sizes.map(Double.init))
        let add = median(addTimes)
        let carry = median(carryTimes)
        let imported = median(importTimes)
        guard try phone.capture(["item", "ls"]).contains("Change \(runs)") else {
            throw BenchFailure(
                "the watcher said it imported, but \"Change \(runs)\" is not listed on the other machine")
        }
        BenchReport.record(
            "syncthing",
            [
                "runs": Double(runs), "bytes": size, "app_ms": app, "plain_ms": plain, "difference_ms": app - plain,
                "target_ms": target, "item_add_ms": add, "log_carried_ms": carry, "import_ms": imported,
            ], digits: 0,
            line: String(
                format:
                    "two machines through Syncthing (median of %d): a change (item add → imported by the device kept in sync on the other) %.0f ms; a plain file of the same size (%.0f bytes) %.0f ms; difference %.0f ms   (target ≤ %.0f ms)\n  the change: item add %.0f ms, its log carried %.0f ms (from the end of item add to its arrival), imported %.0f ms after its arrival",
                runs, app, size, plain, app - plain, target, add, carry, imported))
    }

    /// Lets Syncthing's watcher forget the last change: each measure starts a batch of its own.
    static func settle() { usleep(1_500_000) }

    /// The device on the other machine kept in sync as the running app keeps it: `cloud watch
    /// --json`, its lines read on a thread of their own and each import's time kept.
    final class Watcher: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var imports: [Double] = []
        private var ended = false

        init(_ machine: Machine) throws {
            process.executableURL = machine.binary
            process.arguments = Array(machine.commandLine.dropFirst()) + ["cloud", "watch", "--json"]
            process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GROCERY_DUDE_") }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            BenchInterruption.shared.started(process)
            let reading = output.fileHandleForReading
            Thread { [self] in
                var pending = Data()
                while true {
                    let chunk = reading.availableData
                    let now = GroceryDudeBench.now()
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if line.contains("\"event\": \"imported\"") { lock.withLock { imports.append(now) } }
                    }
                }
                lock.withLock { ended = true }
            }.start()
        }

        /// The time of the first import reported after `time`.
        func nextImport(after time: Double, timeout: Double) throws -> Double {
            let deadline = GroceryDudeBench.now() + timeout
            while true {
                let (found, over) = lock.withLock { (imports.first(where: { $0 > time }), ended) }
                if let found { return found }
                guard !over else {
                    throw BenchFailure("cloud watch on the other machine stopped (status \(process.terminationStatus))")
                }
                guard GroceryDudeBench.now() < deadline else {
                    throw BenchFailure("the change did not reach the other machine within \(Int(timeout)) s")
                }
                usleep(500)
            }
        }

        func stop() {
            guard process.isRunning else { return }
            process.interrupt()
            process.waitUntilExit()
        }
    }

    /// The logs in a copy of the cloud folder (paths relative to it).
    static func logs(in cloud: URL) -> [String] {
        (FileManager.default.subpaths(atPath: cloud.path) ?? []).filter { $0.hasSuffix(".gdlog") && !$0.contains("/.") }
    }

    /// Watches a copy of the cloud folder (every millisecond, on a thread of its own) for a log
    /// that is not among `known`: when Syncthing renamed it into place.
    final class Arrival: @unchecked Sendable {
        private let lock = NSLock()
        private var time: Double?
        private var stopped = false

        init(folder: URL, known: Set<String>) {
            Thread { [self] in
                while lock.withLock({ !stopped && time == nil }) {
                    if SyncthingLatency.logs(in: folder).contains(where: { !known.contains($0) }) {
                        let now = GroceryDudeBench.now()
                        lock.withLock { time = now }
                    }
                    usleep(1000)
                }
            }.start()
        }

        func wait(timeout: Double) throws -> Double {
            let deadline = GroceryDudeBench.now() + timeout
            defer { lock.withLock { stopped = true } }
            while true {
                if let time = lock.withLock({ time }) { return time }
                guard GroceryDudeBench.now() < deadline else {
                    throw BenchFailure("the change's log did not reach the other machine within \(Int(timeout)) s")
                }
                usleep(1000)
            }
        }
    }

    /// The size of the newest log in a copy of the cloud folder.
    static func newestLogSize(in cloud: URL) throws -> Int {
        let manager = FileManager.default
        var newest: (Date, Int)?
        for path in manager.subpaths(atPath: cloud.path) ?? [] where path.hasSuffix(".gdlog") {
            let attributes = try manager.attributesOfItem(atPath: cloud.appendingPathComponent(path).path)
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            if newest == nil || modified > newest!.0 {
                newest = (modified, (attributes[.size] as? NSNumber)?.intValue ?? 0)
            }
        }
        guard let newest else { throw BenchFailure("no log in \(cloud.path)") }
        return newest.1
    }

    static func shell(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = arguments
        // The pair stops with the bench, even when it is interrupted.
        process.environment = ProcessInfo.processInfo.environment.merging(["SYNCTHING_PAIR_OWNER": String(getpid())]) {
            _, new in new
        }
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    /// A device on one of the two machines, using that machine's copy of the cloud folder.
    struct Machine {
        let binary: URL
        let data: URL
        let cloud: URL
        let device: String

        var commandLine: [String] {
            [binary.path, "--data-dir", data.path, "--device", device, "--cloud", cloud.path, "--no-default-data"]
        }

        /// Runs a command that must succeed, spawned and waited for directly (Foundation's
        /// `waitUntilExit` polls every 50 ms); returns what it printed.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let (status, output) = try spawn(arguments)
            guard status == 0 else {
                throw BenchFailure(
                    "\(device): grocery-dude \(arguments.joined(separator: " ")) failed (wait status \(status))")
            }
            return output
        }

        func capture(_ arguments: [String]) throws -> String { try run(arguments) }

        private func spawn(_ arguments: [String]) throws -> (Int32, String) {
            let argv = commandLine + arguments
            let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GROCERY_DUDE_") }.map {
                "\($0.key)=\($0.value)"
            }
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw BenchFailure("pipe: \(String(cString: strerror(errno)))") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
            let cArguments = argv.map { strdup($0) } + [nil]
            let cEnvironment = environment.map { strdup($0) } + [nil]
            defer { for pointer in cArguments + cEnvironment { free(pointer) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, binary.path, &actions, nil, cArguments, cEnvironment)
            close(fds[1])
            defer { close(fds[0]) }
            guard spawned == 0 else {
                throw BenchFailure("cannot start \(binary.path): \(String(cString: strerror(spawned)))")
            }
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                if count > 0 {
                    output.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return (status, String(decoding: output, as: UTF8.self))
        }
    }
}
