import Foundation
import GRDB

/// Reads a Core Data SQLite store of the original Grocery Dude app: `ZITEM`, `ZUNIT`,
/// `ZLOCATION` (home or shop by `Z_ENT`, named in `Z_PRIMARYKEY`) and `ZITEM_PHOTO`.
///
/// Works on a copy, so that the user's file is never touched (and a read-only file or folder is
/// no problem). Dates (`ZMODIFIED`, present in later models) are seconds since 2001.
public enum CoreDataStoreReader {
    public static func read(path: String) throws -> GroceryArchive {
        let source = URL(fileURLWithPath: path)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ArchiveError.malformed("cannot read the file")
        }
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("grocery-dude-import-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        let database = copy.appendingPathComponent("store.sqlite")
        do {
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
        let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
        func entityNumber(_ name: String) -> Int? {
            entities.first { ($0["Z_NAME"] as String?) == name }?["Z_ENT"]
        }
        guard let homeEntity = entityNumber("LocationAtHome"), let shopEntity = entityNumber("LocationAtShop") else {
            throw ArchiveError.malformed("Z_PRIMARYKEY names no LocationAtHome or LocationAtShop entity")
        }

        var archive = GroceryArchive()
        let unitHasModified = try db.columns(in: "ZUNIT").contains { $0.name == "ZMODIFIED" }
        var units: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM ZUNIT ORDER BY Z_PK") {
            guard let name: String = row["ZNAME"] else { continue }
            units[row["Z_PK"]] = name
            archive.units.append(CatalogRecord(name: name, modified: unitHasModified ? date(row["ZMODIFIED"]) : nil))
        }

        let locationHasModified = try db.columns(in: "ZLOCATION").contains { $0.name == "ZMODIFIED" }
        var homes: [Int64: String] = [:]
        var shops: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM ZLOCATION ORDER BY Z_PK") {
            let entity: Int = row["Z_ENT"]
            let modified = locationHasModified ? date(row["ZMODIFIED"]) : nil
            if entity == homeEntity, let name: String = row["ZSTOREDIN"] {
                homes[row["Z_PK"]] = name
                archive.homeLocations.append(CatalogRecord(name: name, modified: modified))
            } else if entity == shopEntity, let name: String = row["ZAISLE"] {
                shops[row["Z_PK"]] = name
                archive.shopLocations.append(CatalogRecord(name: name, modified: modified))
            }
        }

        let hasPhotos = try db.tableExists("ZITEM_PHOTO")
        let itemColumns = Set(try db.columns(in: "ZITEM").map(\.name))
        for row in try Row.fetchAll(db, sql: "SELECT * FROM ZITEM ORDER BY Z_PK") {
            var item = ItemRecord(name: row["ZNAME"] ?? "New Item")
            item.quantity = row["ZQUANTITY"] ?? 1
            item.listed = (row["ZLISTED"] as Int64?).map { $0 != 0 } ?? true
            item.collected = (row["ZCOLLECTED"] as Int64?).map { $0 != 0 } ?? false
            if itemColumns.contains("ZMODIFIED") { item.modified = date(row["ZMODIFIED"]) }
            item.unit = (row["ZUNIT"] as Int64?).flatMap { units[$0] }
            item.homeLocation = (row["ZLOCATIONATHOME"] as Int64?).flatMap { homes[$0] }
            item.shopLocation = (row["ZLOCATIONATSHOP"] as Int64?).flatMap { shops[$0] }
            if hasPhotos, let photoKey: Int64 = row["ZPHOTO"],
               let blob = try Data.fetchOne(db, sql: "SELECT ZDATA FROM ZITEM_PHOTO WHERE Z_PK = ?", arguments: [photoKey]) {
                item.photo = try photo(blob, supportDirectory: supportDirectory, item: item.name)
            }
            archive.items.append(item)
        }
        return archive
    }

    private static func date(_ value: Double?) -> Date? {
        value.map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// A photo attribute with external storage allowed: a marker byte, then either the bytes
    /// (`0x01`) or the name of a file in the support folder (`0x02`). Anything else is raw bytes.
    static func photo(_ blob: Data, supportDirectory: URL, item: String) throws -> Data? {
        guard let marker = blob.first else { return nil }
        switch marker {
        case 0x01:
            return blob.dropFirst()
        case 0x02:
            let name = String(decoding: blob.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            let file = supportDirectory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file) else {
                throw ArchiveError.malformed("the photo of \(item.debugDescription) is stored in \(file.path), which cannot be read")
            }
            return data
        default:
            return blob
        }
    }
}
