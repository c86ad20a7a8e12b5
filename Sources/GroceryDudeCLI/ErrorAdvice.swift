import Foundation
import GroceryModel
import StoreLifecycle

/// The command line's advice on the errors the lower layers throw: which command or option puts
/// each right, as a shell user types it. The lower layers say what is wrong and carry the facts
/// (names, store names, model versions); they name no command, since the app shows the same
/// errors and advises keys instead (``ViewModels`` words its own).
enum ErrorAdvice {
    /// What follows the error's own message, separator first; `nil` when the command line adds
    /// nothing.
    static func advice(for error: any Error) -> String? {
        switch error {
        case GroceryError.duplicates: "; grocery-dude dedupe merges them (or use an ID)"
        case GroceryError.notInModelVersion(_, _, let store): " — run without --model-version \(store) to upgrade"
        case GroceryError.unknownFormat: "; pass --format json|csv|csv-aisles|xml|coredata"
        case StoreRemovalError.cloudDisabled, SeedError.notInCloud: ": grocery-dude cloud enable"
        case StoreRemovalError.deviceOffline: " (grocery-dude cloud online)"
        case HouseholdError.notSyncing: ": grocery-dude cloud enable"
        case StoreRemovalError.earlierBuilds: ", or start over with --despite-earlier-builds"
        case NamedListError.unknown: " (grocery-dude lists ls shows them)"
        case NamedListError.removed: "; make a new one with grocery-dude lists new"
        case NamedListError.ambiguous(_, let lists) where lists.count > 1:
            "; name one by its store name (--list \(lists[0].storeName)), or make them one with "
                + "grocery-dude lists merge \(lists[1].storeName) --into \(lists[0].storeName)"
        default: nil
        }
    }

    /// The commands the device layer's notices and reasons end with (``DeviceAdvice``), for the
    /// command line and the app it opens alike: the app has no key for these.
    static let device = DeviceAdvice(
        divergence: "run grocery-dude cloud verify",
        keptStore: "grocery-dude cloud merge-kept FILE brings what it holds into the new content",
        foreignFolder: "grocery-dude cloud adopt makes this folder its cloud folder")

    /// The error as the command line reports it: its own message, then the advice (the error
    /// itself when there is none, so that ArgumentParser's own errors keep their handling).
    static func advised(_ error: any Error) -> any Error {
        guard let advice = advice(for: error) else { return error }
        return Advised(description: "\(error)" + advice)
    }

    /// An error with the command line's advice in its message.
    struct Advised: Error, CustomStringConvertible, LocalizedError {
        let description: String
        var errorDescription: String? { description }
    }
}
