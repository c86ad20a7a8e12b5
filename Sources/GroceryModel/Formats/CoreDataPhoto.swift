import Foundation

/// A photo attribute of a Core Data store that allows external storage: a marker byte, then
/// either the bytes (`0x01`) or the name of a file in the store's support folder (`0x02`,
/// the name optionally ended by a NUL byte). Anything else is raw bytes.
///
/// The support folder is `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store. An external
/// name comes from the file being imported, so it is untrusted: it must be a plain file name
/// (not empty, no `/`, not `.` or `..`, no NUL, UTF-8) of a regular file inside that folder,
/// and neither the file nor the folders may be symbolic links. Anything else is refused, so
/// that a store cannot make the import read another file of the user's.
enum CoreDataPhoto {
    /// The photo's bytes.
    ///
    /// - Parameter row: the item's row, for messages.
    /// - Throws: ``ArchiveError`` when the external file is not acceptable or cannot be read.
    static func data(_ blob: Data, supportDirectory: URL, row: CoreDataRow) throws -> Data? {
        guard let marker = blob.first else { return nil }
        switch marker {
        case 0x01:
            return blob.dropFirst()
        case 0x02:
            let file = try externalFile(Data(blob.dropFirst()), supportDirectory: supportDirectory, row: row)
            guard let data = try? Data(contentsOf: file) else {
                throw row.problem("ZPHOTO", "the photo is stored in \(file.path), which cannot be read")
            }
            return data
        default:
            return blob
        }
    }

    /// The file an external reference names, checked as the type's documentation says.
    static func externalFile(_ reference: Data, supportDirectory: URL, row: CoreDataRow) throws -> URL {
        let folder =
            "\(supportDirectory.deletingLastPathComponent().lastPathComponent)/\(supportDirectory.lastPathComponent)"
        var bytes = reference
        if bytes.last == 0 { bytes.removeLast() }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            throw row.problem("ZPHOTO", "the photo's external file name is not valid UTF-8")
        }
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw row.problem(
                "ZPHOTO", "the photo's external file \(name.debugDescription) is not a plain file name in \(folder)")
        }
        let file = supportDirectory.appendingPathComponent(name, isDirectory: false)
        for path in [supportDirectory.deletingLastPathComponent(), supportDirectory, file].map(\.path)
        where fileType(at: path) == .typeSymbolicLink {
            throw row.problem(
                "ZPHOTO",
                "the photo's external file \(name.debugDescription) is reached through a symbolic link (\(path)), which is refused"
            )
        }
        if let type = fileType(at: file.path), type != .typeRegular {
            throw row.problem("ZPHOTO", "the photo's external file \(name.debugDescription) is not a regular file")
        }
        guard
            file.resolvingSymlinksInPath().deletingLastPathComponent().path
                == supportDirectory.resolvingSymlinksInPath().path
        else {
            throw row.problem("ZPHOTO", "the photo's external file \(name.debugDescription) is not inside \(folder)")
        }
        return file
    }

    /// What is at `path`, not following a symbolic link; `nil` when nothing is.
    private static func fileType(at path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }
}
