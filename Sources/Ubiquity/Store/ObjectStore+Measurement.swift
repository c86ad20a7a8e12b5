import GRDB

extension ObjectStore {
    /// Runs `body` with this store's commits left unsynced (`synchronous = NORMAL`: a commit
    /// reaches the write-ahead log and waits for the next checkpoint's sync), then makes them
    /// durable again. For the benchmark only, which prints what durability costs a save beside
    /// the durable figure: nothing the user does ever runs here, since a save acknowledged
    /// without its sync can be lost to a power cut.
    public func measuringWithoutDurableCommits<T>(_ body: () throws -> T) throws -> T {
        try writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        defer { _ = try? writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") } }
        return try body()
    }
}
