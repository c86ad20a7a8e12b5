import GroceryModel
import StoreLifecycle
import TextAndFiles

/// An error as the app's screens word it: its one-line reason (``ErrorText/reason(_:)``), then
/// the key that puts it right where the app has one. The lower layers' messages name no command
/// (the command line adds its own advice), so the screens never advise typing one.
public enum AppErrorText {
    public static func reason(_ error: any Error) -> String {
        ErrorText.reason(error) + (advice(for: error) ?? "")
    }

    /// The keys that put `error` right, separator first; `nil` when the app has none to offer.
    static func advice(for error: any Error) -> String? {
        switch error {
        case StoreRemovalError.cloudDisabled, SeedError.notInCloud: " (c on the Cloud screen turns it on)"
        case StoreRemovalError.deviceOffline: " (o on the Cloud screen goes online)"
        case NamedListError.unknown, NamedListError.removed: " (L shows the lists)"
        case NamedListError.ambiguous: " (L shows them; + there merges two lists of one name)"
        default: nil
        }
    }
}
