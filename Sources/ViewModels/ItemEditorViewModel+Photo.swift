import Foundation
import GroceryModel
import TextAndFiles

/// The item's photo: attached from a file, removed, described.
extension ItemEditorViewModel {
    /// Attaches the photo in the file at `path` (saved at once, as its own change).
    ///
    /// - Throws: why not (no such file, not a photo, too large): the caller keeps the path.
    public func attachPhoto(fromFile path: String) throws {
        guard isOpen, !isStoreChanging else { return }
        let data = try PhotoFile.read(path)
        photoSize = try store.setPhoto(id, data).photoSize
        message = "Photo attached (\(Self.byteCount(data.count)))"
        refreshIfChanged()
    }

    public func removePhoto() {
        guard isOpen, !isStoreChanging, photoSize != nil else { return }
        do {
            photoSize = try store.setPhoto(id, nil).photoSize
            message = "Photo removed"
            refreshIfChanged()
        } catch {
            message = ErrorText.reason(error)
        }
    }

    /// "Photo: 23 KB", or "No photo".
    public var photoDescription: String {
        photoSize.map { "Photo: \(Self.byteCount($0))" } ?? "No photo"
    }

    static func byteCount(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}
