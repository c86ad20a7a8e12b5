import Foundation

extension FileManager {
    /// Creates the folder at `url` and any missing folders above it.
    ///
    /// A failure names the folder and says why in one line, such as "Not a directory" when a file
    /// stands where a folder should be. Foundation's own error prints as a dump of its user info.
    ///
    /// - Throws: ``FileError/unwritable(path:reason:)``.
    public func createFolder(at url: URL) throws {
        do {
            try createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw FileError.unwritable(path: url.path, reason: ErrorText.reason(error))
        }
    }
}
