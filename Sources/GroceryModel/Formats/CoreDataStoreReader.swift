import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a Core Data SQLite store of the original Grocery Dude app: `ZITEM`, `ZUNIT`,
/// `ZLOCATION` (home or shop by `Z_ENT`, named in `Z_PRIMARYKEY`) and `ZITEM_PHOTO`.
///
/// Works on a copy in a temp folder, so that the user's file is never touched (and a read-only
/// file or folder is no problem); the copy is removed however the reading ends. The store is
/// untrusted input: every value is read through ``CoreDataRow`` and every external photo through
/// ``CoreDataPhoto``, so a damaged or hostile store is an error, never a crash or another file
/// read. Dates (`ZMODIFIED`, present in later models) are seconds since 2001.
public enum CoreDataStoreReader {
    /// - Parameter temporaryDirectory: where to put the copy.
    /// - Throws: ``ArchiveError`` saying what is wrong with the store.
    public static func read(path: String, temporaryDirectory: URL = FileManager.default.temporaryDirectory) throws
        -> GroceryArchive
    {
        let source = URL(fileURLWithPath: path)
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, FileManager.default.isReadableFile(atPath: path)
        else {
            throw ArchiveError.malformed("cannot read the file (not a readable regular file)")
        }
        let copy = temporaryDirectory.appendingPathComponent(
            "grocery-dude-import-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        let database = copy.appendingPathComponent("store.sqlite")
        do {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: database)
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: database.path + suffix)
            }
        } catch {
            throw ArchiveError.malformed("cannot copy the store (\((error as NSError).localizedDescription))")
        }

        do {
            let queue = try DatabaseQueue(path: database.path)
            return try queue.read { db in try archive(db, supportDirectory: supportDirectory(for: source)) }
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB { throw ArchiveError.malformed("not an SQLite database") }
            throw ArchiveError.malformed("cannot read the store: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Where Core Data keeps photos stored outside the database: `.<name>_SUPPORT/_EXTERNAL_DATA`.
    private static func supportDirectory(for store: URL) -> URL {
        let name = store.deletingPathExtension().lastPathComponent
        return store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA")
    }

    private static func archive(_ db: Database, supportDirectory: URL) throws -> GroceryArchive {
        for table in ["ZITEM", "ZUNIT", "ZLOCATION", "Z_PRIMARYKEY"] where try !db.tableExists(table) {
            throw ArchiveError.malformed("no \(table) table: not a Grocery Dude Core Data store")
        }
        var entities: [String: Int64] = [:]
        try forEachRow(db, table: "Z_PRIMARYKEY", key: "Z_ENT") { row in
            if let name = try row.text("Z_NAME"), entities[name] == nil { entities[name] = row.key }
        }
        guard let homeEntity = entities["LocationAtHome"], let shopEntity = entities["LocationAtShop"] else {
            throw ArchiveError.malformed("Z_PRIMARYKEY names no LocationAtHome or LocationAtShop entity")
        }

        var archive = GroceryArchive()
        var units: [Int64: String] = [:]
        try forEachRow(db, table: "ZUNIT") { row in
            guard let name = try row.text("ZNAME") else { return }
            units[row.key] = name
            archive.units.append(CatalogRecord(name: name, modified: try row.date("ZMODIFIED")))
        }

        var homes: [Int64: String] = [:]
        var shops: [Int64: String] = [:]
        try forEachRow(db, table: "ZLOCATION") { row in
            let entity = try row.required(row.integer("Z_ENT"), "Z_ENT")
            let modified = try row.date("ZMODIFIED")
            if entity == homeEntity, let name = try row.text("ZSTOREDIN") {
                homes[row.key] = name
                archive.homeLocations.append(CatalogRecord(name: name, modified: modified))
            } else if entity == shopEntity, let name = try row.text("ZAISLE") {
                shops[row.key] = name
                archive.shopLocations.append(CatalogRecord(name: name, modified: modified))
            }
        }

        let hasPhotos = try db.tableExists("ZITEM_PHOTO")
        try forEachRow(db, table: "ZITEM") { row in
            var item = ItemRecord(name: try row.text("ZNAME") ?? "New Item")
            item.quantity = try row.number("ZQUANTITY") ?? 1
            item.listed = try row.integer("ZLISTED").map { $0 != 0 } ?? true
            item.collected = try row.integer("ZCOLLECTED").map { $0 != 0 } ?? false
            item.modified = try row.date("ZMODIFIED")
            item.unit = try row.integer("ZUNIT").flatMap { units[$0] }
            item.homeLocation = try row.integer("ZLOCATIONATHOME").flatMap { homes[$0] }
            item.shopLocation = try row.integer("ZLOCATIONATSHOP").flatMap { shops[$0] }
            if hasPhotos, let photoKey = try row.integer("ZPHOTO"), let blob = try photoData(db, key: photoKey) {
                item.photo = try CoreDataPhoto.data(blob, supportDirectory: supportDirectory, row: row)
            }
            archive.items.append(item)
        }
        return archive
    }

    /// `ZITEM_PHOTO.ZDATA` of the photo row `key`; `nil` when there is no such row.
    private static func photoData(_ db: Database, key: Int64) throws -> Data? {
        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM ZITEM_PHOTO WHERE Z_PK = ?", arguments: [key])
        guard let row = try cursor.next() else { return nil }
        return try CoreDataRow(row, table: "ZITEM_PHOTO", position: 1).blob("ZDATA")
    }

    /// Calls `body` with each row of `table`, in the order of its `key`.
    private static func forEachRow(
        _ db: Database, table: String, key: String = "Z_PK", _ body: (CoreDataRow) throws -> Void
    ) throws {
        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY \(key)")
        var position = 0
        while let row = try cursor.next() {
            position += 1
            try body(CoreDataRow(row, table: table, key: key, position: position))
        }
    }
}
