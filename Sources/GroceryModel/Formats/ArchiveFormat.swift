import Foundation

/// The file formats `import` reads and `export` writes.
public enum ArchiveFormat: String, CaseIterable, Sendable {
    /// The project's own JSON (``GroceryArchive``).
    case json
    /// The project's own CSV: one row per item, unit, home location or aisle of the default
    /// shop. An import of a `.csv` file whose header has a `shop` column reads it as
    /// ``csvAisles``.
    case csv
    /// The project's CSV of shops' aisles: one row per item in an aisle of a shop
    /// (``CSVAislesCoder``).
    case csvAisles = "csv-aisles"
    /// The book's `DefaultData.xml`: `<items><item name= unit= locationathome= locationatshop=/>`.
    case xml
    /// A Core Data SQLite store of the original Grocery Dude app.
    case coredata

    /// Whether `export` can write this format.
    public var isWritable: Bool { self == .json || self == .csv || self == .csvAisles }

    /// The format a file's name says it has.
    ///
    /// - Throws: ``GroceryError/unknownFormat(file:)`` for an extension it does not know.
    public static func detect(path: String) throws -> ArchiveFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": .json
        case "csv": .csv
        case "xml": .xml
        case "sqlite", "sqlite3", "db", "storedata": .coredata
        default: throw GroceryError.unknownFormat(file: path)
        }
    }

    /// Reads a file of this format into an archive.
    ///
    /// - Throws: ``ArchiveError`` saying what is wrong with the file.
    public func read(path: String) throws -> GroceryArchive {
        switch self {
        case .coredata:
            return try CoreDataStoreReader.read(path: path)
        case .json, .csv, .csvAisles, .xml:
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ArchiveError.malformed("cannot read the file (\((error as NSError).localizedDescription))")
            }
            switch self {
            case .json: return try JSONArchiveCoder.decode(data)
            case .csv where CSVAislesCoder.isAislesFile(data): return try CSVAislesCoder.decode(data)
            case .csv: return try CSVArchiveCoder.decode(data)
            case .csvAisles: return try CSVAislesCoder.decode(data)
            default: return try BookXMLReader.read(data)
            }
        }
    }

    /// Writes an archive in this format (``json``, ``csv`` or ``csvAisles``).
    public func write(_ archive: GroceryArchive) throws -> Data {
        switch self {
        case .json: return try JSONArchiveCoder.encode(archive)
        case .csv: return CSVArchiveCoder.encode(archive)
        case .csvAisles: return CSVAislesCoder.encode(archive)
        case .xml, .coredata:
            throw ArchiveError.malformed("grocery-dude exports json, csv or csv-aisles, not \(rawValue)")
        }
    }
}
