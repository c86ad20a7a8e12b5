import Foundation
import GRDB
import GroceryModel
import Logging
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// `grocery-dude-bench`: prints the sync engine's figures next to the project's targets.
///
/// ```
/// grocery-dude-bench [latency|import|capture|dedupe|digest|render|new-peer|departed|all] [--changes N] [--rounds R] [--json]
/// grocery-dude-bench syncthing [--changes RUNS] [--json]
/// ```
/// `--rounds` repeats the import, its raw insert and its floor that many times, taking turns,
/// and reports the fastest of each (what `scripts/bench-peers.sh` compares with the peers' best
/// of three).
/// With `--json`, one JSON object of every bench that ran (``BenchReport``).
/// `syncthing` (not part of `all`: it starts two Syncthing instances, `scripts/syncthing-pair.sh`)
/// Build it in release mode: `swift build -c release --product grocery-dude-bench`.
@main
enum GroceryDudeBench {
    static func main() {
        do {
            try run()
        } catch {
            // A clear message and a failing exit, not a trap with a stack trace.
            FileHandle.standardError.write(Data("grocery-dude-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "render-fill", arguments.count == 3, let items = Int(arguments[2]) {
            try RenderCost.fill(folder: URL(fileURLWithPath: arguments[1]), items: items)
            return
        }
        if arguments.first == "follow", arguments.count == 2 {
            try Latency.follow(folder: URL(fileURLWithPath: arguments[1]))
            return
        }
        // The latency bench's writers, the engine's and the floor's, started by the bench itself.
        if arguments.first == "write" || arguments.first == "floor-write", arguments.count == 6 || arguments.count == 7
        {
            let usage =
                "write FOLDER NAME COUNT RATE START | floor-write FOLDER NAME COUNT RATE START SIZE: a count and a size above 0, saves a second above 0, a start time in seconds"
            guard let count = Int(arguments[3]), count > 0, let rate = Double(arguments[4]), rate > 0, rate.isFinite,
                let start = Double(arguments[5]), start.isFinite
            else { throw BenchFailure(usage) }
            let folder = URL(fileURLWithPath: arguments[1])
            if arguments.first == "write", arguments.count == 6 {
                try Latency.write(folder: folder, name: arguments[2], count: count, rate: rate, start: start)
            } else if arguments.first == "floor-write", arguments.count == 7, let size = Int(arguments[6]), size > 0 {
                try LatencyFloor.write(
                    folder: folder, name: arguments[2], count: count, rate: rate, start: start, size: size)
            } else {
                throw BenchFailure(usage)
            }
            return
        }
        func count(_ option: String) throws -> Int? {
            guard let index = arguments.firstIndex(of: option) else { return nil }
            guard index + 1 < arguments.count, let count = Int(arguments[index + 1]), count > 0 else {
                throw BenchFailure("\(option) takes a positive whole number")
            }
            arguments.removeSubrange(index...index + 1)
            return count
        }
        let changes = try count("--changes")
        let rounds = try count("--rounds") ?? 1
        let json = arguments.contains("--json")
        BenchReport.json = json
        arguments.removeAll { $0 == "--json" }
        let which = arguments.first ?? "all"
        let known = [
            "latency", "import", "capture", "dedupe", "digest", "render", "new-peer", "departed", "all", "syncthing",
        ]
        guard arguments.count <= 1, known.contains(which) else {
            FileHandle.standardError.write(
                Data(
                    "usage: grocery-dude-bench [\(known.joined(separator: "|"))] [--changes N] [--rounds R] [--json]\n"
                        .utf8))
            exit(2)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grocery-dude-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        BenchInterruption.shared.removesOnInterruption(folder)
        /// Whether to run `bench`: then, in `all`, what the benches before it wrote is put on
        /// the disk first (`sync`), so that its writeback is not timed as part of this one.
        func runs(_ bench: String) -> Bool {
            guard which == bench || which == "all" else { return false }
            if which == "all" { sync() }
            return true
        }
        if runs("latency") {
            try Latency.run(folder: folder.appendingPathComponent("latency"), changes: changes ?? 300)
        }
        if runs("import") {
            // Items of 10 properties: at least one.
            guard (changes ?? 500_000) >= 10 else {
                throw BenchFailure("import needs --changes of 10 or more (an item is 10 changes)")
            }
            try ImportThroughput.run(
                folder: folder.appendingPathComponent("import"), items: (changes ?? 500_000) / 10, rounds: rounds)
        }
        // 10,000 saves: at 1,000 the ratio moved between runs by more than a step of the engine gains.
        if runs("capture") {
            try CaptureOverhead.run(folder: folder.appendingPathComponent("capture"), saves: changes ?? 10_000)
        }
        if runs("dedupe") {
            try DedupeCost.run(folder: folder.appendingPathComponent("dedupe"), items: changes ?? 10_000)
        }
        if runs("digest") {
            try DigestCost.run(folder: folder.appendingPathComponent("digest"), items: changes ?? 100_000)
        }
        if runs("render") {
            try RenderCost.run(folder: folder.appendingPathComponent("render"), items: changes ?? 100_000)
        }
        if runs("new-peer") {
            try NewPeer.run(folder: folder.appendingPathComponent("new-peer"), live: changes ?? 10_000)
        }
        if which == "syncthing" {
            try SyncthingLatency.run(folder: folder.appendingPathComponent("syncthing"), runs: changes ?? 5)
        }
        if runs("departed") {
            try DepartedPeers.run(folder: folder.appendingPathComponent("departed"), peers: changes ?? 2000)
        }
        if json { print(BenchReport.text) }
    }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The CPU time of the calling thread (user and system), in seconds: what a write cost this
    /// thread, without the time it waited for the disk or for another thread.
    static func threadCPU() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
    }

    /// A peer with its store in `folder/name`, sharing `cloud` (default: `folder/Cloud`).
    static func peer(_ folder: URL, _ name: String, cloud: URL? = nil) throws -> (GroceryStore, CloudSync) {
        let cloud = cloud ?? folder.appendingPathComponent("Cloud")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let store = try GroceryStore(
            path: folder.appendingPathComponent("\(name)/store.sqlite").path,
            defaultData: false, peer: "\(name)-peer")
        let layout = try CloudLayout(
            cloud: cloud, account: "bench",
            storeName: "GroceryDude", modelVersion: store.modelVersion)
        return (store, CloudSync(store: store.objects, layout: layout, device: name))
    }
}

/// A change on one peer process, seen in another peer process's store (live watching), with
/// several writers saving at once: each writer is a process of its own (a peer with its own
/// store, exporting as it saves) that saves at a steady rate from a start time they share, and
/// prints when each save began; the follower (one more process, `LiveSync` on the cloud folder)
/// prints when each item arrived in its store. A change's latency: from the start of its save
/// to its arrival. Writers never wait for the follower (an open loop: a slow import shows as
/// latency, not as fewer saves). Its floor, the same files published and noticed with no engine,
/// is measured after it in the same run (``LatencyFloor``).
enum Latency {
    static let writers = 4
    static let savesPerSecond = 100.0

    static func run(folder: URL, changes: Int) throws {
        _ = try GroceryDudeBench.peer(folder, "follower")  // the cloud folder and the follower's store exist first
        let follower = try spawn(["follow", folder.path])
        let followed = LineReader(handle: follower.output)
        guard followed.next() == "ready" else {
            print("latency: the follower did not start")
            return
        }
        // Read as they come: a pipe left full would stall the follower's imports.
        let arrivals = Arrivals(followed)

        // Every writer opens its store first, then all start together.
        let start = GroceryDudeBench.now() + 1.5
        let writerProcesses = try (1...writers).map { index in
            try spawn(["write", folder.path, "w\(index)", String(changes), String(savesPerSecond), String(start)])
        }
        let began = beginnings(of: writerProcesses)
        let ended = GroceryDudeBench.now()
        for process in writerProcesses { process.process.waitUntilExit() }
        // Every change's arrival, or 30 s without a new one.
        var seen: [String: Double] = [:]
        var lastCount = -1
        var lastProgress = GroceryDudeBench.now()
        while true {
            seen = arrivals.seen
            if began.keys.allSatisfy({ seen[$0] != nil }) { break }
            if seen.count != lastCount {
                lastCount = seen.count
                lastProgress = GroceryDudeBench.now()
            } else if GroceryDudeBench.now() - lastProgress > 30 {
                break
            }
            usleep(10_000)
        }
        let latencies = began.compactMap { name, started in seen[name].map { ($0 - started) * 1000 } }
        let arrived = Set(seen.keys)
        let missing = began.keys.filter { !arrived.contains($0) }.sorted()
        if !missing.isEmpty {
            FileHandle.standardError.write(
                Data(
                    "latency: \(missing.count) changes never arrived within 30 s: \(missing.prefix(20).joined(separator: ", "))\n"
                        .utf8))
        }
        let rounds = arrivals.rounds
        follower.process.terminate()
        follower.process.waitUntilExit()
        let saves = Double(began.count)
        let achieved = saves / max(ended - start, 0.001)
        let p50 = GroceryDudeBench.percentile(latencies, 0.5)
        let p99 = GroceryDudeBench.percentile(latencies, 0.99)
        sync()  // the floor starts, as the engine did, with nothing of the other's writes pending
        let logSize = LatencyFloor.medianLogSize(in: folder.appendingPathComponent("Cloud"))
        let floor = try LatencyFloor.run(
            folder: folder.appendingPathComponent("floor"), writers: writers, changes: changes,
            rate: savesPerSecond, fileSize: logSize)
        BenchReport.record(
            "latency",
            [
                "p50_ms": p50, "p99_ms": p99, "max_ms": latencies.max() ?? .nan,
                "writers": Double(writers), "saves_per_s_per_writer": savesPerSecond,
                "saves_per_s": achieved, "changes": saves, "arrived": Double(latencies.count),
                "floor_p50_ms": floor.p50, "floor_p99_ms": floor.p99, "floor_max_ms": floor.max,
                "floor_arrived": Double(floor.arrived), "floor_file_bytes": Double(logSize),
                // Both sides commit durably: the engine's saves (`synchronous = FULL`) and the
                // floor's journal (``LatencyFloor``).
                "durable": 1,
                // The follower's rounds up to its last import: the logs its watcher named taken
                // alone, or the folder surveyed (``LiveSyncRounds``).
                "rounds_named": Double(rounds.namedLogs), "rounds_full": Double(rounds.full),
            ], digits: 2,
            line: String(
                format:
                    "propagation between processes, %d writers at %.0f saves/s each (%.0f saves/s in all; %d of %d changes arrived): p50 %.1f ms, p99 %.1f ms, max %.1f ms   (target p99 ≤ 8 ms; saves durable; the follower's rounds: %d took the logs its watcher named, %d surveyed the folder); the floor, each change committed durably (appended to a journal, fdatasync) then the same files published and noticed with no engine (%d of %d seen): p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                writers, savesPerSecond, achieved, latencies.count, began.count, p50, p99, latencies.max() ?? .nan,
                rounds.namedLogs, rounds.full, floor.arrived, floor.sent, floor.p50, floor.p99, floor.max))
    }

    /// The follower's lines ("<name> <time>", and "rounds <named> <full>" after each import),
    /// read on a thread of their own.
    final class Arrivals: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [String: Double] = [:]
        private var lastRounds = LiveSyncRounds()

        init(_ lines: LineReader) {
            Thread { [self] in
                while let line = lines.next() {
                    let parts = line.split(separator: " ")
                    if parts.count == 3, parts[0] == "rounds", let named = Int(parts[1]), let full = Int(parts[2]) {
                        lock.withLock { lastRounds = LiveSyncRounds(namedLogs: named, full: full) }
                    } else if parts.count == 2, let time = Double(parts[1]) {
                        lock.withLock { times[String(parts[0])] = time }
                    }
                }
            }.start()
        }

        var seen: [String: Double] { lock.withLock { times } }
        /// The follower's rounds as of its last import: how many imported the logs its watcher
        /// named alone, how many surveyed the folder.
        var rounds: LiveSyncRounds { lock.withLock { lastRounds } }
    }

    /// A writer: a peer of its own that saves `count` items, `rate` a second from `start`, and
    /// prints "<name> <time>" as each save begins.
    static func write(folder: URL, name: String, count: Int, rate: Double, start: Double) throws {
        let (store, sync) = try GroceryDudeBench.peer(folder, name)
        store.objects.observeSaves { _ in _ = try? sync.exportPending() }
        try paced(name, count: count, rate: rate, start: start) { index in
            try store.addItem(ItemDraft(name: "\(name)-\(index)"))
        }
    }

    /// Makes change 1, 2 … `count` of writer `name` with `change`, `rate` a second from `start`,
    /// and prints "<name>-<index> <time>" for each, the time it began. Printed at the end:
    /// writing to the pipe while saving would be part of the measure.
    static func paced(_ name: String, count: Int, rate: Double, start: Double, _ change: (Int) throws -> Void) rethrows
    {
        var lines: [String] = []
        for index in 1...count {
            let due = start + Double(index - 1) / rate
            let wait = due - GroceryDudeBench.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            let began = GroceryDudeBench.now()
            try change(index)
            lines.append("\(name)-\(index) \(began)")
        }
        emit(lines.joined(separator: "\n"))
    }

    /// When each change of `writers` began, by "<name>-<index>" (``paced(_:count:rate:start:_:)``):
    /// all they print, read to its end.
    static func beginnings(of writers: [(process: Process, output: FileHandle)]) -> [String: Double] {
        var began: [String: Double] = [:]
        for lines in writers.map({ LineReader(handle: $0.output) }) {
            while let line = lines.next() {
                let parts = line.split(separator: " ")
                if parts.count == 2, let time = Double(parts[1]) { began[String(parts[0])] = time }
            }
        }
        return began
    }

    static func spawn(_ arguments: [String]) throws -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        BenchInterruption.shared.started(process)
        return (process, output.fileHandleForReading)
    }

    /// The follower: watches the cloud folder and prints "<name> <time>" for every item that arrives.
    static func follow(folder: URL) throws {
        let (store, plainSync) = try GroceryDudeBench.peer(folder, "follower")
        var logger = Logger(label: "follower") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let sync = CloudSync(store: plainSync.store, layout: plainSync.layout, device: "follower", logger: logger)
        let live = LiveSync(sync: sync, logger: logger)
        try live.start(
            rescanInterval: 5,
            onImport: { report in
                let time = GroceryDudeBench.now()
                for object in report.changes.inserted where object.entity == GrocerySchema.Entity.item {
                    do {
                        guard let row = try store.item(id: ItemID(object.id)) else {
                            FileHandle.standardError.write(
                                Data("follower: item \(object.id) reported imported, not in the store\n".utf8))
                            continue
                        }
                        emit("\(row.name.replacingOccurrences(of: " ", with: "_")) \(time)")
                    } catch {
                        FileHandle.standardError.write(
                            Data("follower: item \(object.id) reported imported, not read: \(error)\n".utf8))
                    }
                }
                // Which path the rounds took so far (``LiveSyncRounds``): the last line is the total.
                emit("rounds \(live.rounds.namedLogs) \(live.rounds.full)")
            },
            onProblem: { problem in
                FileHandle.standardError.write(Data("follower: \(problem)\n".utf8))
            })
        emit("ready")
        while true { sleep(60) }
    }
}

/// The item table with the model's columns and nothing else: what raw writes are compared with.
func createPlainItemTable(_ db: Database) throws {
    try db.execute(
        sql: """
            CREATE TABLE item (id TEXT PRIMARY KEY, name TEXT, quantity REAL, listed INTEGER, collected INTEGER,
                               modified REAL, unit TEXT, locationAtHome TEXT, locationAtShop TEXT, photo TEXT, note TEXT)
            """)
}

/// Writes a line to stdout at once (unbuffered: the leader waits for it).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Reads lines from a pipe, blocking.
/// Read by one thread at a time (the follower's lines move to a thread of their own once
/// "ready" was read).
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}

/// Applying another peer's logs durably, next to two floors measured in the same run on the
/// rows the import wrote, read back from its store before the floors are timed:
/// - the raw insert the goal is set against: the item rows into a table with only its primary
///   key, one transaction, one prepared statement;
/// - the floor of any store that keeps these rows: the same item rows, their property clocks in
///   them, into the same table of a new store of the same kind (the model's indexes, the
///   writer's settings), one transaction, one prepared statement: no log read, no check, no merge.
/// Both insert in the import's order (the order the items were made; IDs are random).
enum ImportThroughput {
    static func run(folder: URL, items: Int, rounds: Int) throws {
        let (source, sourceSync) = try GroceryDudeBench.peer(folder, "source")
        let perLog = 2500
        var made = 0
        while made < items {
            let count = min(perLog, items - made)
            try source.objects.save(author: "bench") { context in
                for index in made..<(made + count) {
                    try context.insert(
                        GrocerySchema.Entity.item,
                        values: [
                            "name": .string("Item \(index)"), "quantity": .double(Double(index % 7 + 1)),
                            "listed": .bool(index % 3 == 0), "collected": .bool(false),
                        ])
                }
            }
            made += count
        }
        try sourceSync.exportPending()

        let properties =
            items * GrocerySchema.definition.versions.last!.schema.entity(named: "Item")!.propertyNames.count
        // Each round into new stores; the fastest of each kind is reported.
        var importSeconds = Double.infinity
        var rawSeconds = Double.infinity
        var floorSeconds = Double.infinity
        var appliedLogs = 0
        for round in 1...rounds {
            let roundFolder = folder.appendingPathComponent("round-\(round)")
            defer { try? FileManager.default.removeItem(at: roundFolder) }  // its stores: ~30 MB at 500k changes
            let (target, targetSync) = try GroceryDudeBench.peer(
                roundFolder, "target", cloud: folder.appendingPathComponent("Cloud"))
            let started = GroceryDudeBench.now()
            let report = try targetSync.importPending()
            importSeconds = min(importSeconds, GroceryDudeBench.now() - started)
            appliedLogs = report.appliedLogs

            // The item's columns as the raw table has them, then its clocks (the engine's column;
            // a bench may name it).
            let columns =
                "id, name, quantity, listed, collected, modified, unit, locationAtHome, locationAtShop, photo, note"
            let imported = try target.objects.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT \(columns), ubiquity_clocks FROM item WHERE ubiquity_clocks IS NOT NULL ORDER BY rowid"
                )
                .map { Array($0.databaseValues) }
            }
            guard imported.count == items else {
                throw BenchFailure("the import left \(imported.count) items with clocks, not \(items)")
            }
            let itemColumns = imported[0].count - 1
            // Both bind their values one by one as the engine binds its rows (through
            // `StatementArguments`, a row cost 16 % of the raw insert and 10 % of the floor, and
            // flattered both ratios).
            let rawRows = imported.map { Array($0[..<itemColumns]) }

            let raw = try DatabaseQueue(path: roundFolder.appendingPathComponent("raw.sqlite").path)
            try raw.write { db in
                try createPlainItemTable(db)
            }
            let rawInsert = "INSERT INTO item (\(columns)) VALUES (\(placeholders(itemColumns)))"
            let rawStarted = GroceryDudeBench.now()
            try raw.write { db in
                for values in rawRows { try db.executeCached(rawInsert, binding: values) }
            }
            rawSeconds = min(rawSeconds, GroceryDudeBench.now() - rawStarted)

            let (floor, _) = try GroceryDudeBench.peer(roundFolder, "floor")
            let floorInsert = "INSERT INTO item (\(columns), ubiquity_clocks) VALUES (\(placeholders(itemColumns + 1)))"
            let floorStarted = GroceryDudeBench.now()
            try floor.objects.write { db in
                for values in imported { try db.executeCached(floorInsert, binding: values) }
            }
            floorSeconds = min(floorSeconds, GroceryDudeBench.now() - floorStarted)
            try target.objects.close()
            try floor.objects.close()
        }

        let importRate = Double(properties) / importSeconds
        let rawRate = Double(properties) / rawSeconds
        let floorRate = Double(properties) / floorSeconds
        BenchReport.record(
            "import",
            [
                "changes_per_s": importRate.rounded(), "raw_insert_per_s": rawRate.rounded(),
                "ratio": importRate / rawRate, "floor_insert_per_s": floorRate.rounded(),
                "floor_ratio": importRate / floorRate, "changes": Double(properties),
                "logs": Double(appliedLogs), "rounds": Double(rounds),
            ],
            line: String(
                format:
                    "import of %d logs (%d property changes)%@: %.0f changes/s; raw batched insert: %.0f changes/s, ratio %.2f (target ≥ 0.6); the same rows with their clocks into the model's table: %.0f changes/s, ratio %.2f",
                appliedLogs, properties, rounds > 1 ? ", the fastest of \(rounds) rounds" : "",
                importRate, rawRate, importRate / rawRate, floorRate, importRate / floorRate))
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

/// A save through the engine (data, clocks, outbox) next to a plain write of the same row:
/// into the same table of the same kind of store (the model's indexes, the same connection
/// settings), and into a bare table without indexes. The three take turns, 50 writes at a
/// time, so that a busy machine slows them alike. The plain writes make their IDs as the engine
/// does (`RandomIDGenerator`: one `getrandom`); Foundation's `UUID()` opens `/dev/urandom` for
/// each, which cost a plain write 6 % and flattered the ratio. Each kind's CPU time on the saving
/// thread is counted too (GRDB runs a write on the calling thread): a save here is bound by CPU,
/// not by the disk, and most of its commit is the kernel taking the log's pages (SQLite writes
/// each page of the write-ahead log with two `pwrite` calls, its frame's header and the page).
///
/// A fourth writer takes turns with them: the floor of a save that keeps what a save keeps — the
/// same row with its readings in it and a row of its record, the bytes a real save wrote, by two
/// prepared statements in one transaction, with no work around them. No engine that keeps an
/// object's readings and its transaction with the row can save in less; `floor_plain_ratio` is
/// the best ratio any such engine can show.
enum CaptureOverhead {
    static func run(folder: URL, saves: Int) throws {
        let (store, _) = try GroceryDudeBench.peer(folder, "capture")
        let (same, _) = try GroceryDudeBench.peer(folder, "plain")
        let bare = try DatabasePool(path: folder.appendingPathComponent("bare.sqlite").path)
        // Durable as the stores are: each commit synced before it returns.
        try bare.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try bare.write { db in
            try createPlainItemTable(db)
        }
        let insert = "INSERT INTO item (id, name, quantity, listed, collected, modified) VALUES (?, ?, 1, 1, 0, ?)"
        let ids = RandomIDGenerator()
        let (floor, _) = try GroceryDudeBench.peer(folder, "floor")
        let sample = try SavedRows(of: store)
        let floorRow =
            "INSERT INTO item (id, name, quantity, listed, collected, modified, ubiquity_clocks) VALUES (?, ?, 1, 1, 0, ?, ?)"
        let floorRecord =
            "INSERT INTO ubiquity_outbox (transactionID, timestamp, modelVersion, clock, payload) VALUES (?, ?, ?, ?, ?)"
        func floorSave(_ name: String) throws {
            try floor.objects.write { db in
                let id = ids.next().description
                let now = GroceryDudeBench.now()
                try db.cachedStatement(sql: floorRow).execute(arguments: [id, name, now, sample.clocks])
                try db.cachedStatement(sql: floorRecord).execute(arguments: [
                    ids.next().description, now, sample.modelVersion,
                    sample.clock, sample.payload,
                ])
            }
        }
        // Outside the save API on purpose: the plain write is the row alone.
        func plainWrite(_ name: String) throws {
            try same.objects.write { db in
                try db.cachedStatement(sql: insert).execute(arguments: [
                    ids.next().description, name, GroceryDudeBench.now(),
                ])
            }
        }
        func engineSave(_ name: String) throws {
            _ = try store.objects.save(author: "bench") { context in
                try context.insert(GrocerySchema.Entity.item, values: ["name": .string(name)])
            }
        }
        var bareSeconds = 0.0
        var plainSeconds = 0.0
        var engineSeconds = 0.0
        var floorSeconds = 0.0
        // The same writes' CPU time on this thread (GRDB runs a write on the calling thread).
        var plainCPU = 0.0
        var engineCPU = 0.0
        var floorCPU = 0.0
        for round in stride(from: 0, to: saves, by: 50) {
            let indices = round..<min(saves, round + 50)
            var started = GroceryDudeBench.now()
            for index in indices {
                try bare.write { db in
                    try db.cachedStatement(sql: insert).execute(arguments: [
                        ids.next().description, "Item \(index)", GroceryDudeBench.now(),
                    ])
                }
            }
            bareSeconds += GroceryDudeBench.now() - started
            started = GroceryDudeBench.now()
            var cpu = GroceryDudeBench.threadCPU()
            for index in indices { try plainWrite("Item \(index)") }
            plainSeconds += GroceryDudeBench.now() - started
            plainCPU += GroceryDudeBench.threadCPU() - cpu
            started = GroceryDudeBench.now()
            cpu = GroceryDudeBench.threadCPU()
            for index in indices { try engineSave("Item \(index)") }
            engineSeconds += GroceryDudeBench.now() - started
            engineCPU += GroceryDudeBench.threadCPU() - cpu
            started = GroceryDudeBench.now()
            cpu = GroceryDudeBench.threadCPU()
            for index in indices { try floorSave("Item \(index)") }
            floorSeconds += GroceryDudeBench.now() - started
            floorCPU += GroceryDudeBench.threadCPU() - cpu
        }
        // The same two again with neither side's commits synced (`synchronous = NORMAL`, the
        // measure of the builds before saves were durable): the engine's share without the
        // disk's sync in both figures.
        var unsyncedPlainSeconds = 0.0
        var unsyncedEngineSeconds = 0.0
        try same.objects.measuringWithoutDurableCommits {
            try store.objects.measuringWithoutDurableCommits {
                for round in stride(from: 0, to: saves, by: 50) {
                    let indices = round..<min(saves, round + 50)
                    var started = GroceryDudeBench.now()
                    for index in indices { try plainWrite("Unsynced \(index)") }
                    unsyncedPlainSeconds += GroceryDudeBench.now() - started
                    started = GroceryDudeBench.now()
                    for index in indices { try engineSave("Unsynced \(index)") }
                    unsyncedEngineSeconds += GroceryDudeBench.now() - started
                }
            }
        }
        let saveMS = engineSeconds / Double(saves) * 1000
        let plainMS = plainSeconds / Double(saves) * 1000
        let bareMS = bareSeconds / Double(saves) * 1000
        let floorMS = floorSeconds / Double(saves) * 1000

        // Pages each write adds to the write-ahead log (after emptying it): what a commit writes;
        // and the same pages put down to their tables (`WALPagesByTable`).
        func pages(_ objects: ObjectStore, _ write: (Int) throws -> Void) throws -> (Double, WALPagesByTable.Count) {
            objects.checkpoint()
            for index in 0..<50 { try write(index) }  // 50 × ~18 pages: under the automatic checkpoint
            let size = (try? FileManager.default.attributesOfItem(atPath: objects.path + "-wal")[.size] as? Int) ?? 0
            // No `dbstat` in the SQLite linked: the tables' shares are not measured (null).
            let byTable = (try? WALPagesByTable.count(of: objects)) ?? WALPagesByTable.Count()
            return (Double(size - 32) / Double(4096 + 24) / 50, byTable)
        }
        let (savePages, saveTables) = try pages(store.objects) { index in try engineSave("Page \(index)") }
        let (plainPages, plainTables) = try pages(same.objects) { index in try plainWrite("Page \(index)") }
        let (floorPages, floorTables) = try pages(floor.objects) { index in try floorSave("Page \(index)") }
        let item = "item"
        let outbox = "ubiquity_outbox"
        BenchReport.record(
            "capture",
            [
                "save_ms": saveMS, "plain_ms": plainMS, "ratio": engineSeconds / plainSeconds,
                "bare_ms": bareMS, "bare_ratio": engineSeconds / bareSeconds,
                "floor_ms": floorMS, "floor_ratio": engineSeconds / floorSeconds,
                "floor_plain_ratio": floorSeconds / plainSeconds,
                "save_wal_pages": savePages, "plain_wal_pages": plainPages, "floor_wal_pages": floorPages,
                "save_wal_pages_item": saveTables.pages(of: item),
                "save_wal_pages_outbox": saveTables.pages(of: outbox),
                "save_wal_pages_header": saveTables.pages(of: "sqlite_schema"),
                "plain_wal_pages_item": plainTables.pages(of: item),
                "floor_wal_pages_item": floorTables.pages(of: item),
                "save_cpu_ms": engineCPU / Double(saves) * 1000, "plain_cpu_ms": plainCPU / Double(saves) * 1000,
                "floor_cpu_ms": floorCPU / Double(saves) * 1000, "cpu_ratio": engineCPU / plainCPU,
                "floor_cpu_ratio": engineCPU / floorCPU,
                "saves": Double(saves), "durable": 1,
                "nondurable_save_ms": unsyncedEngineSeconds / Double(saves) * 1000,
                "nondurable_plain_ms": unsyncedPlainSeconds / Double(saves) * 1000,
                "nondurable_ratio": unsyncedEngineSeconds / unsyncedPlainSeconds,
            ], digits: 4,
            line: String(
                format:
                    "capture (every write durable: synchronous = FULL): %d saves through the engine %.3f ms each; plain writes of the same row into the same table %.3f ms each, ratio %.2f (target ≤ 1.3); into a table without indexes %.3f ms, ratio %.2f; the floor of a save (the row with its readings, and its record's row, nothing else) %.3f ms, %.2f× the plain write, the engine %.2f× the floor; pages written to the WAL a save %.1f (the item table and its indexes %.2f, the outbox %.2f, page 1 %.2f), a plain write %.1f (the item table and its indexes %.2f), the floor %.1f (the item table and its indexes %.2f); CPU time of the saving thread a save %.3f ms, %.2f× the plain write's (target ≤ 1.3), %.2f× the floor's; with neither side's commits synced, a save %.3f ms, a plain write %.3f ms, ratio %.2f",
                saves, saveMS, plainMS, engineSeconds / plainSeconds, bareMS, engineSeconds / bareSeconds,
                floorMS, floorSeconds / plainSeconds, engineSeconds / floorSeconds,
                savePages, saveTables.pages(of: item), saveTables.pages(of: outbox),
                saveTables.pages(of: "sqlite_schema"), plainPages, plainTables.pages(of: item),
                floorPages, floorTables.pages(of: item),
                engineCPU / Double(saves) * 1000, engineCPU / plainCPU, engineCPU / floorCPU,
                unsyncedEngineSeconds / Double(saves) * 1000, unsyncedPlainSeconds / Double(saves) * 1000,
                unsyncedEngineSeconds / unsyncedPlainSeconds))
    }
}

/// What one real save of an item wrote besides its row's values: its clocks' text and its outbox
/// row (the record's JSON, the clock it carries), read back from the engine's tables.
struct SavedRows {
    let clocks: String, payload: Data, clock: String?, modelVersion: Int

    init(of store: GroceryStore) throws {
        let id = try store.objects.save(author: "bench") { context in
            try context.insert(GrocerySchema.Entity.item, values: ["name": .string("Item 0")])
        }
        let rows = try store.objects.read { db -> (String?, Row?) in
            (
                try String.fetchOne(
                    db, sql: "SELECT ubiquity_clocks FROM item WHERE id = ?", arguments: [id.description]),
                try Row.fetchOne(
                    db, sql: "SELECT payload, clock, modelVersion FROM ubiquity_outbox ORDER BY seq DESC LIMIT 1")
            )
        }
        guard let clocks = rows.0, let record = rows.1 else {
            throw BenchFailure("a save wrote no clocks or outbox row")
        }
        (self.clocks, payload, clock, modelVersion) = (
            clocks, record["payload"], record["clock"], record["modelVersion"]
        )
    }
}

/// Deduplication when there is nothing to merge, on 10k items (target < 10 ms).
enum DedupeCost {
    static func run(folder: URL, items: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try GroceryStore(path: folder.appendingPathComponent("store.sqlite").path, defaultData: false)
        _ = try store.objects.save(author: "bench") { context in
            for index in 0..<items {
                try context.insert(GrocerySchema.Entity.item, values: ["name": .string("Item \(index)")])
            }
        }
        let deduplicator = Deduplicator(store: store.objects)
        _ = try deduplicator.run()
        var unchanged: [Double] = []
        var changed: [Double] = []
        for round in 0..<20 {
            var started = GroceryDudeBench.now()
            _ = try deduplicator.run()
            unchanged.append((GroceryDudeBench.now() - started) * 1000)
            // One edit: the next run reads every entity's grouped keys again.
            _ = try store.objects.save(author: "bench") { context in
                try context.insert(GrocerySchema.Entity.unit, values: ["name": .string("Unit \(round)")])
            }
            started = GroceryDudeBench.now()
            _ = try deduplicator.run()
            changed.append((GroceryDudeBench.now() - started) * 1000)
        }
        BenchReport.record(
            "dedupe",
            [
                "noop_ms": GroceryDudeBench.percentile(unchanged, 0.5),
                "after_edit_ms": GroceryDudeBench.percentile(changed, 0.5),
                "after_edit_p99_ms": GroceryDudeBench.percentile(changed, 0.99), "items": Double(items),
            ],
            line: String(
                format:
                    "dedupe, %d items, nothing to merge: unchanged since last run p50 %.2f ms; after an edit (full grouped pass) p50 %.1f ms, p99 %.1f ms (target ≤ 5 ms)",
                items, GroceryDudeBench.percentile(unchanged, 0.5), GroceryDudeBench.percentile(changed, 0.5),
                GroceryDudeBench.percentile(changed, 0.99)))
    }
}

/// The digest peers compare (`cloud verify`, and the app once a minute): it reads the whole
/// store, so it is measured against the floor of reading the same rows and clocks.
enum DigestCost {
    static func run(folder: URL, items: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try GroceryStore(path: folder.appendingPathComponent("store.sqlite").path, defaultData: false)
        let itemIDs = try store.objects.save(author: "bench") { context in
            let homes = try (0..<20).map {
                try context.insert(GrocerySchema.Entity.locationAtHome, values: ["storedIn": .string("Location \($0)")])
            }
            return try (0..<items).map { index in
                try context.insert(
                    GrocerySchema.Entity.item,
                    values: ["name": .string("Item \(index)"), "locationAtHome": .reference(homes[index % 20])])
            }
        }
        let objects = store.objects
        var digest: [Double] = []
        var floor: [Double] = []
        for _ in 0..<7 {
            var started = GroceryDudeBench.now()
            _ = try objects.read { db in try Digest.compute(schema: objects.schema, applied: [:], db) }
            digest.append((GroceryDudeBench.now() - started) * 1000)
            started = GroceryDudeBench.now()
            _ = try objects.read { db -> Int in
                var count = 0
                for entity in objects.schema.entities {
                    let rows = try Row.fetchCursor(
                        db, sql: "SELECT * FROM \(entity.table.quotedDatabaseIdentifier) ORDER BY id")
                    while let row = try rows.next() { count += row.count }
                }
                return count
            }
            floor.append((GroceryDudeBench.now() - started) * 1000)
        }
        // After an edit: the first digest reads the store whole, each one after an edit through
        // the engine rehashes what the edit changed (docs/decisions/0167).
        _ = try objects.read { db in try objects.digest(applied: [:], db) }
        var afterEdit: [Double] = []
        for round in 0..<9 {
            try objects.save(author: "bench") { context in
                _ = try context.update(
                    GrocerySchema.Entity.item, id: itemIDs[(round * 7919) % itemIDs.count],
                    values: ["name": .string("Edited \(round)")])
            }
            let started = GroceryDudeBench.now()
            _ = try objects.read { db in try objects.digest(applied: [:], db) }
            afterEdit.append((GroceryDudeBench.now() - started) * 1000)
        }
        let agrees = try objects.read { db in
            try objects.digest(applied: [:], db).top == Digest.compute(schema: objects.schema, applied: [:], db).top
        }
        let digestP50 = GroceryDudeBench.percentile(digest, 0.5)
        let floorP50 = GroceryDudeBench.percentile(floor, 0.5)
        let afterEditP50 = GroceryDudeBench.percentile(afterEdit, 0.5)
        BenchReport.record(
            "digest",
            [
                "digest_ms": digestP50, "read_floor_ms": floorP50, "ratio": digestP50 / floorP50,
                "items": Double(items), "after_edit_ms": afterEditP50, "agrees": agrees ? 1 : 0,
            ],
            digits: 2,
            line:
                "digest of \(items) items: p50 \(Int(digestP50.rounded())) ms whole, \(String(format: "%.2f", afterEditP50)) ms after an edit (agrees with the whole one: \(agrees ? "yes" : "NO")); reading the same rows and clocks p50 \(Int(floorP50.rounded())) ms; ratio \(Int((digestP50 / floorP50).rounded()))"
        )
    }
}
