import Foundation
import GroceryModel
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// What the history of departed devices costs every command: a no-op command (`item ls`, the
/// real binary built beside the bench) on a cloud store with no other peer, next to the same
/// store with N departed peers whose logs are already applied (target: within 1.5×).
///
/// Each departed peer left two logs, re-encoded from the device's own first log under a fresh
/// peer ID: an item inserted, then deleted. The two stores list the same items.
enum DepartedPeers {
    static let runs = 15

    static func run(folder: URL, peers: Int) throws {
        let binary = try grocerydude()
        let none = try Device(binary: binary, folder: folder.appendingPathComponent("none"))
        let departed = try Device(binary: binary, folder: folder.appendingPathComponent("departed"))
        for device in [none, departed] {
            try device.run(["cloud", "enable"])
            for index in 1...20 { try device.run(["item", "add", "Item \(index)"]) }
        }
        try writeDepartedPeers(peers, into: departed)
        // One import applies them all: from then on their logs are history.
        for device in [none, departed] { try device.run(["cloud", "sync"]) }
        // Departed: nothing in the cloud folder has changed for a while. (An import trusts what
        // it remembers of a folder once the folder is over two seconds older than its listing;
        // `cloud sync` itself has just written a baseline and a digest.)
        sleep(3)
        func names(_ device: Device) throws -> [String] {
            try device.run(["item", "ls"]).split(separator: "\n").dropFirst().map {
                String($0.dropFirst(3).drop { $0 != " " })
            }
        }
        guard try names(departed) == (try names(none)) else {
            throw BenchFailure("the two stores do not list the same items")
        }
        for device in [none, departed] { _ = try device.time(["item", "ls"]) }  // warm-up
        var noneTimes: [Double] = []
        var departedTimes: [Double] = []
        for _ in 0..<runs {
            noneTimes.append(try none.time(["item", "ls"]))
            departedTimes.append(try departed.time(["item", "ls"]))
        }
        let noneMedian = GroceryDudeBench.percentile(noneTimes, 0.5)
        let departedMedian = GroceryDudeBench.percentile(departedTimes, 0.5)
        let ratio = departedMedian / noneMedian
        let (listing, stats) = try floorCosts(departed)
        let floorRatio = (noneMedian + listing + stats) / noneMedian
        BenchReport.record(
            "departed",
            [
                "peers": Double(peers), "none_ms": noneMedian, "departed_ms": departedMedian, "ratio": ratio,
                "listing_ms": listing, "stats_ms": stats, "floor_ratio": floorRatio,
            ],
            digits: 2,
            line: String(
                format:
                    "no-op command (item ls, median of %d): no other peer %.1f ms; %d departed peers %.1f ms; ratio %.2f   (target ≤ 1.5); the floor: the folder listed %.2f ms and a stat of each peer folder %.2f ms, ratio %.2f",
                runs, noneMedian, peers, departedMedian, ratio, listing, stats, floorRatio))
    }

    /// The floor of departed peers: what any command that notices a log added to any of their
    /// folders pays at least — the folder of logs listed (`readdir`, no name kept) and a `stat`
    /// of each peer folder, from the open folder, as an import does (medians of ``runs``, in
    /// milliseconds). Nothing else is read.
    static func floorCosts(_ device: Device) throws -> (listing: Double, stats: Double) {
        let layout = try CloudLayout(
            cloud: device.cloud, account: "default", storeName: GroceryStore.defaultStoreName,
            modelVersion: GrocerySchema.currentVersion)
        let folder = layout.logsFolder.path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        guard let handle = opendir(folder) else { throw BenchFailure("cannot open \(folder)") }
        defer { closedir(handle) }
        let parent = dirfd(handle)
        var listings: [Double] = []
        var times: [Double] = []
        for _ in 0..<runs {
            var started = GroceryDudeBench.now()
            guard let listed = opendir(folder) else { throw BenchFailure("cannot open \(folder)") }
            var entries = 0
            while readdir(listed) != nil { entries += 1 }
            closedir(listed)
            listings.append((GroceryDudeBench.now() - started) * 1000)
            guard entries >= names.count else { throw BenchFailure("\(folder) listed \(entries) entries") }
            started = GroceryDudeBench.now()
            var info = stat()
            for name in names where fstatat(parent, name, &info, 0) != 0 {
                throw BenchFailure("cannot stat \(name) in \(folder)")
            }
            times.append((GroceryDudeBench.now() - started) * 1000)
        }
        return (GroceryDudeBench.percentile(listings, 0.5), GroceryDudeBench.percentile(times, 0.5))
    }

    /// `grocery-dude`, beside this executable.
    static func grocerydude() throws -> URL {
        let own = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let binary = own.deletingLastPathComponent().appendingPathComponent("grocery-dude")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchFailure("\(binary.path) not found: build it too (swift build -c release --product grocery-dude)")
        }
        return binary
    }

    /// Writes `count` departed peers' logs into the device's store folder: per peer, the
    /// device's first log (an item inserted) re-encoded as another item, then its delete.
    static func writeDepartedPeers(_ count: Int, into device: Device) throws {
        let layout = try CloudLayout(
            cloud: device.cloud, account: "default", storeName: GroceryStore.defaultStoreName,
            modelVersion: GrocerySchema.currentVersion)
        let own = try FileManager.default.contentsOfDirectory(atPath: layout.logsFolder.path)
        guard own.count == 1, let ownPeer = own.first else {
            throw BenchFailure("expected the device's own folder alone in \(layout.logsFolder.path)")
        }
        let template = try LogFile.read(
            at: layout.logURL(peer: ownPeer, seq: 1), expecting: layout, peer: ownPeer, seq: 1
        ).record
        guard let inserted = template.inserted.first(where: { $0.object.entity == GrocerySchema.Entity.item }) else {
            throw BenchFailure("the device's first log inserts no item")
        }
        let wall = Int64((Date().timeIntervalSince1970 - 30 * 24 * 3600) * 1000)
        for index in 0..<count {
            let peer = UUID().uuidString.lowercased()
            let object = ObjectID(entity: inserted.object.entity, id: GlobalID(UUID()))
            var values = inserted.values
            values["name"] = .string("Departed \(index)")
            let insert = TransactionRecord(
                transactionID: GlobalID(UUID()), timestamp: template.timestamp, author: template.author,
                inserted: [ObjectChange(object: object, values: values)], updated: [], deleted: [],
                clock: HLC(wall: wall, counter: 0, peer: peer))
            let delete = TransactionRecord(
                transactionID: GlobalID(UUID()), timestamp: template.timestamp, author: template.author,
                inserted: [], updated: [], deleted: [object],
                clock: HLC(wall: wall, counter: 1, peer: peer))
            try FileManager.default.createDirectory(at: layout.peerFolder(peer), withIntermediateDirectories: true)
            for (seq, record) in [insert, delete].enumerated() {
                let data = try LogFile.encode(
                    record, layout: layout, peer: peer, device: "departed-\(index)", seq: Int64(seq + 1))
                try data.write(to: layout.logURL(peer: peer, seq: Int64(seq + 1)))
            }
        }
    }

    /// A device of its own data folder and cloud folder, driven through the real binary.
    struct Device {
        let binary: URL
        let folder: URL
        var cloud: URL { folder.appendingPathComponent("Cloud", isDirectory: true) }

        init(binary: URL, folder: URL) throws {
            self.binary = binary
            self.folder = folder
            // The cloud folder must exist: a missing one is an offline cloud folder.
            try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        }

        /// Runs a command that must succeed; returns what it printed.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let errors = Pipe()
            let process = try start(arguments, output: Pipe(), errors: errors)
            let output = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
            let said = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchFailure(
                    "grocery-dude \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: said, as: UTF8.self))"
                )
            }
            return String(decoding: output, as: UTF8.self)
        }

        /// How long a command takes, start to exit, in milliseconds. Spawned and waited for
        /// directly: Foundation's `waitUntilExit` polls its run loop every 50 ms.
        func time(_ arguments: [String]) throws -> Double {
            let argv = [binary.path] + commandLine(arguments)
            let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GROCERY_DUDE_") }.map {
                "\($0.key)=\($0.value)"
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            let cArguments = argv.map { strdup($0) } + [nil]
            let cEnvironment = environment.map { strdup($0) } + [nil]
            defer { for pointer in cArguments + cEnvironment { free(pointer) } }
            var pid: pid_t = 0
            let started = GroceryDudeBench.now()
            let spawned = posix_spawn(&pid, binary.path, &actions, nil, cArguments, cEnvironment)
            guard spawned == 0 else {
                throw BenchFailure("cannot start \(binary.path): \(String(cString: strerror(spawned)))")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let elapsed = (GroceryDudeBench.now() - started) * 1000
            guard status == 0 else {
                throw BenchFailure("grocery-dude \(arguments.joined(separator: " ")) failed (wait status \(status))")
            }
            return elapsed
        }

        func commandLine(_ arguments: [String]) -> [String] {
            ["--data-dir", folder.path, "--device", "bench", "--cloud", cloud.path, "--no-default-data"] + arguments
        }

        private func start(_ arguments: [String], output: Any, errors: Any) throws -> Process {
            let process = Process()
            process.executableURL = binary
            process.arguments = commandLine(arguments)
            var environment = ProcessInfo.processInfo.environment
            for key in environment.keys where key.hasPrefix("GROCERY_DUDE_") { environment[key] = nil }
            process.environment = environment
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            BenchInterruption.shared.started(process)
            return process
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
