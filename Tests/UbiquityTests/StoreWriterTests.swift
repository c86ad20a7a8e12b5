import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A save that waits for the store names the process writing to it, found by the WAL write lock
/// it holds in `/proc/locks`.
@Suite("The process that holds a store")
struct StoreWriterTests {
    let folder = TemporaryDirectory("store-writer")

    @Test func theWriteLockOfTheStoresFileIsFoundAmongOtherLocks() {
        let listing = """
            1: POSIX  ADVISORY  READ 4100 fe:00:777 128 128
            2: POSIX  ADVISORY  WRITE 4101 fe:00:778 120 120
            3: FLOCK  ADVISORY  WRITE 4102 fe:00:777 0 EOF
            4: POSIX  ADVISORY  WRITE 4103 fe:00:777 120 120
            4: -> POSIX  ADVISORY  WRITE 4104 fe:00:777 120 120
            """
        #expect(StoreWriter.writeLockHolder(in: listing, inode: "777") == 4103)
        #expect(StoreWriter.writeLockHolder(in: listing, inode: "778") == 4101)
        // A process that waits for the lock ("->") does not hold it; a read lock is not the writer's.
        let waiting = """
            1: POSIX  ADVISORY  READ 4100 fe:00:777 120 120
            1: -> POSIX  ADVISORY  WRITE 4104 fe:00:777 120 120
            """
        #expect(StoreWriter.writeLockHolder(in: waiting, inode: "777") == nil)
    }

    @Test func aStoreInTheMiddleOfAWriteNamesThisProcess() throws {
        let path = folder.file("store.sqlite").path
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        #expect(StoreWriter.describe(storePath: path) == nil, "nobody writes yet")
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            #expect(StoreWriter.describe(storePath: path) == "process \(getpid()) (this process)")
        }
        #expect(StoreWriter.describe(storePath: path) == nil, "the write is over")
    }
}
