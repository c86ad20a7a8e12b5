import Foundation

/// What the grocery store refuses, each with a one-line message for the user. The message says
/// what is wrong, not which command or key puts it right: the command line and the screens add
/// that advice in their own words.
public enum GroceryError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidName(field: String, reason: String)
    case invalidQuantity(String)
    case notFound(kind: String, reference: String)
    case ambiguous(kind: String, reference: String, candidates: [String])
    /// Several objects have the name the user typed (ignoring case, spaces and Unicode form):
    /// duplicates, typically made on two devices before they synced.
    case duplicates(kind: String, reference: String, candidates: [String])
    case alreadyExists(kind: String, name: String)
    /// The default shop cannot be removed (its aisles are the book's).
    case defaultShop(name: String)
    /// An aisle move that cannot be made.
    case invalidMove(reason: String)
    case importFailed(file: String, reason: String)
    case unknownFormat(file: String)
    /// A property the store's model version does not have.
    case notInModelVersion(property: String, since: Int, store: Int)
    /// A file that is not a store (the engine's ``StoreError/notAStore(path:reason:)``, in the app's words).
    case notAStore(path: String, reason: String)
    /// A store written by a newer version of the app (``StoreError/newerModelVersion(store:app:path:)``).
    case newerModelVersion(store: Int, app: Int, path: String)

    public var description: String {
        switch self {
        case .invalidName(let field, let reason): "invalid \(field): \(reason)"
        case .invalidQuantity(let reason): "invalid quantity: \(reason)"
        case .notFound(let kind, let reference): "no \(kind) matches \(reference.debugDescription)"
        case .ambiguous(let kind, let reference, let candidates):
            "\(reference.debugDescription) matches \(candidates.count) \(kind)s: \(candidates.joined(separator: ", "))"
        case .duplicates(let kind, let reference, let candidates):
            "\(reference.debugDescription) matches \(candidates.count) \(kind)s: \(candidates.joined(separator: ", ")) — the same name, "
                + "made on several devices or spelled differently"
        case .alreadyExists(let kind, let name): "\(kind.withArticle) named \(name.debugDescription) exists already"
        case .defaultShop(let name):
            "\(name.debugDescription) is the default shop, which holds the aisles of items with no shop named; it cannot be removed, only renamed"
        case .invalidMove(let reason): "cannot move the aisle: \(reason)"
        case .importFailed(let file, let reason): "cannot import \(file): \(reason); nothing was imported"
        case .notInModelVersion(let property, let since, let store):
            "this device's store is at model version \(store), which has no \(property) (it came with version \(since)); nothing was changed"
        case .notAStore(let path, let reason): "\(path) is not a Grocery Dude store: \(reason)"
        case .newerModelVersion(let store, let app, let path) where store <= app:
            // The model is this app's, the engine's own tables are newer (a later `ubiquity-vN`).
            "the store \(path) was written by a newer grocery-dude (model version \(store) as here, with a newer engine format); run a newer grocery-dude"
        case .newerModelVersion(let store, let app, let path):
            "the store \(path) is at model version \(store), newer than this app's version \(app); run a newer grocery-dude"
        case .unknownFormat(let file):
            "cannot tell the format of \(file) from its name"
        }
    }

    public var errorDescription: String? { description }
}

extension String {
    /// "an item", "a unit", "a home location", "an aisle": by the sound, so a "u" said "you" takes "a".
    var withArticle: String {
        let word = lowercased()
        let vowelSound =
            word.first.map { "aeio".contains($0) } == true
            || word.hasPrefix("u") && !word.hasPrefix("uni") && !word.hasPrefix("us")
        return (vowelSound ? "an " : "a ") + self
    }
}
