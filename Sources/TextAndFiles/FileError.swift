import Foundation

/// A file or folder that could not be written, with why.
public enum FileError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unwritable(let path, let reason): "cannot write to \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
