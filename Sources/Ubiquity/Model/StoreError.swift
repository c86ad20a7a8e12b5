import Foundation

/// What the store refuses, with a message a user can act on.
public enum StoreError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case unknownEntity(String)
    case unknownProperty(entity: String, property: String)
    case wrongType(entity: String, property: String, expected: PropertyType)
    /// A value that breaks its property's ``ValueRule``.
    case invalidValue(entity: String, property: String, reason: String)
    case objectNotFound(ObjectID)
    case duplicateID(ObjectID)
    /// A save of shipped data (``ObjectStore/saveShipped(author:reading:_:)``) changed or deleted
    /// an object instead of only inserting.
    case shippedSaveChanges(ObjectID)
    case newerModelVersion(store: Int, app: Int, path: String)
    case unknownModelVersion(Int)
    case notAStore(path: String, reason: String)
    /// The store was closed (a store transition), while or before it was used.
    case closed(path: String)
    /// Another process kept the store's write lock longer than a save waits for it.
    case busy(path: String, holder: String?)
    /// No clock reading that peers accept comes after one an object holds ("Item …": the last
    /// millisecond of 9999 with the largest counter, which only a hostile file has): a change of
    /// it would lose on every other device, so it is not made.
    case noLaterClockReading(String)
    /// The disk that holds the store (`folder`) is full: SQLite wrote nothing, the transaction
    /// was rolled back whole (``DiskFull``).
    case diskFull(folder: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): "unknown entity \(name)"
        case .closed(let path): "the store \(path) was closed (the app moved to another store)"
        case .busy(let path, let holder):
            "the store \(path) is busy: \(holder ?? "another process") has been writing to it for over \(ObjectStore.busyPatience) seconds; try again when it is done (a stopped process must be resumed or quit)"
        case .unknownProperty(let entity, let property): "\(entity) has no property \(property)"
        case .wrongType(let entity, let property, let expected): "\(entity).\(property) takes a \(expected.rawValue)"
        case .invalidValue(let entity, let property, let reason): "\(entity).\(property): \(reason)"
        case .objectNotFound(let object): "no object \(object)"
        case .duplicateID(let object): "an object \(object) exists already"
        case .shippedSaveChanges(let object): "a save of shipped data may only insert, and it changed \(object)"
        case .newerModelVersion(let store, let app, let path) where store <= app:
            // The model is this app's, the engine's own tables are newer (a later `ubiquity-vN`).
            "the store \(path) was written by a newer version of the app (model version \(store) as here, with a newer engine format); run a newer version of the app"
        case .newerModelVersion(let store, let app, let path):
            "the store \(path) is at model version \(store), newer than this app's version \(app); run a newer version of the app"
        case .unknownModelVersion(let version): "unknown model version \(version)"
        case .notAStore(let path, let reason): "\(path) is not a store: \(reason)"
        case .diskFull(let folder):
            "the disk that holds \(folder) is full: nothing was changed; free some space on it and try again"
        case .noLaterClockReading(let what):
            "\(what) carries the last clock reading there can be (from a file of the cloud folder); a change of it would be lost on every other device, so it was not made"
        }
    }

    public var errorDescription: String? { description }
}
