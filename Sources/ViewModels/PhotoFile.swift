import Foundation

/// A photo file the user names in the item editor: it must exist, be a file, and hold an image
/// (JPEG, PNG, GIF, WebP, HEIC/AVIF, BMP or TIFF, told by its first bytes, not its name).
public enum PhotoFile {
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The file's bytes.
    ///
    /// - Parameter path: as typed; `~` is the home folder.
    /// - Throws: ``Refusal`` saying why the file is not a photo.
    public static func read(_ path: String) throws -> Data {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw Refusal(description: "No such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw Refusal(description: "\(path) is a folder, not a photo") }
        let data = try Data(contentsOf: url)
        guard !data.isEmpty else { throw Refusal(description: "\(path) is empty") }
        guard isImage(data) else {
            throw Refusal(description: "\(path) is not a photo (JPEG, PNG, GIF, WebP, HEIC, BMP or TIFF)")
        }
        return data
    }

    /// Whether the bytes start as an image file does.
    static func isImage(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<(offset + signature.count)]) == signature
        }
        let ascii = { (text: String) in Array(text.utf8) }
        return starts([0xFF, 0xD8, 0xFF])  // JPEG
            || starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // PNG
            || starts(ascii("GIF87a")) || starts(ascii("GIF89a"))
            || (starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8))
            || (starts(ascii("ftyp"), at: 4)
                && ["heic", "heix", "mif1", "avif"].contains { starts(ascii($0), at: 8) })  // HEIC, AVIF
            || starts(ascii("BM"))
            || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])  // TIFF
    }
}
