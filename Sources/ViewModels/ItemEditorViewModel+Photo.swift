import Foundation
import GroceryModel
import TextAndFiles

/// The item's photo: attached from a file, removed, described. Like every field, a photo
/// attached or removed is an edit: saved with `s` (or when leaving, if the user says Save),
/// dropped by Discard, undone with the rest of the save.
extension ItemEditorViewModel {
    /// A photo change waiting for the save.
    public enum PhotoChange: Equatable, Sendable {
        case attach(Data)
        case remove
    }

    /// Reads the photo in the file at `path`, to attach when the edit is saved.
    ///
    /// - Throws: why not (no such file, not a photo, too large): the caller keeps the path.
    public func attachPhoto(fromFile path: String) throws {
        guard isOpen, !isStoreChanging else { return }
        let data = try PhotoFile.read(path)
        photoChange = .attach(data)
        message = "Photo attached (\(Self.byteCount(data.count))); s saves it"
    }

    /// `x`: asks before removing the photo (removed when the edit is saved).
    public func requestRemovePhoto() {
        guard isOpen, !isStoreChanging, shownPhotoSize != nil else {
            message = "No photo to remove"
            return
        }
        dialog = .confirm(
            title: "Remove the Photo?", message: "The photo goes when you save the item (s); Discard keeps it.",
            action: "Remove")
        askingToRemovePhoto = true
    }

    /// The answer to "Remove the Photo?".
    public func answerRemovePhoto(_ accepted: Bool) {
        dialog = nil
        askingToRemovePhoto = false
        guard accepted else { return }
        photoChange = photoSize == nil ? nil : .remove
        message = "Photo removed; s saves it"
    }

    /// The photo's size as the editor shows it: the one attached, none once removed, else the
    /// item's.
    public var shownPhotoSize: Int? {
        switch photoChange {
        case .attach(let data)?: data.count
        case .remove?: nil
        case nil: photoSize
        }
    }

    /// "Photo: 23 KB", or "No photo" (with "(unsaved)" while the change waits for the save).
    public var photoDescription: String {
        let words = shownPhotoSize.map { "Photo: \(Self.byteCount($0))" } ?? "No photo"
        return photoChange == nil ? words : words + " (unsaved)"
    }

    static func byteCount(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}
