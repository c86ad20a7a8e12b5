import ArgumentParser
import Foundation
import GroceryModel
import Logging
import TextAndFiles

extension ArchiveFormat: ExpressibleByArgument {}

/// The formats `export` writes: its help lists only these.
struct WritableFormat: ExpressibleByArgument {
    let format: ArchiveFormat

    init?(argument: String) {
        guard let format = ArchiveFormat(rawValue: argument), format.isWritable else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] { ArchiveFormat.allCases.filter(\.isWritable).map(\.rawValue) }
}

/// `grocery-dude export`: everything, as JSON or CSV, to stdout or a file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every item, unit and location as JSON or CSV (what import reads back).",
        discussion: """
            json has everything, shops included; csv one row per item, unit, home location or \
            default-shop aisle; csv-aisles one row per item in an aisle of a shop, every shop.
            """)
    @ParentCommand var root: GroceryDudeCommand
    @Option(
        help: "json, csv or csv-aisles; default: from --output's extension, else json.",
        completion: .list(WritableFormat.allValueStrings))
    var format: WritableFormat?
    @Option(
        name: [.short, .long], help: "The file to write (replaced atomically); default: standard output.",
        completion: CompletionValues.exportFiles)
    var output: String?

    func run() throws {
        let format = format?.format ?? output.map { try? ArchiveFormat.detect(path: $0) }.flatMap { $0 } ?? .json
        guard format.isWritable else {
            throw ValidationError("export writes json, csv or csv-aisles, not \(format.rawValue)")
        }
        let device = try root.global.openDevice(command: "export")
        let archive = try device.store.exportArchive()
        let data = try format.write(archive)
        if let output {
            try AtomicFile.write(data, to: URL(fileURLWithPath: output))
            FileHandle.standardError.write(Data("Exported \(counted(archive.items.count, "item")) to \(output)\n".utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// `grocery-dude import FILE`: JSON, CSV, the book's XML, or an original Core Data store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import a file: this app's JSON or CSV, the book's DefaultData.xml, or an original Grocery Dude Core Data store.",
        discussion: "Objects are matched by name, so importing a file twice adds nothing. An import is all or nothing.")
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The file to import.", completion: CompletionValues.importFiles) var file: String
    @Option(
        help:
            "json, csv, csv-aisles, xml or coredata; default: from the file's extension (a .csv file with a shop column is csv-aisles)."
    ) var format: ArchiveFormat?

    func run() throws {
        let format = try format ?? ArchiveFormat.detect(path: file)
        guard FileManager.default.fileExists(atPath: file) else {
            throw ValidationErrorMessage("cannot import \(file): no such file")
        }
        let device = try root.global.openDevice(command: "import \(file)")
        let summary = try device.store.importFile(path: file, format: format)
        device.logger.info("imported \(file): \(summary.description)")
        print("Imported \(file): \(summary.description)")
    }
}
