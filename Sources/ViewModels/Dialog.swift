import Foundation

/// A dialog a screen shows, as state: the screens draw it and send the answer back.
public enum Dialog: Equatable, Sendable {
    /// A question with a destructive action ("Clear Entire Shopping List?" [Cancel] [Clear]).
    case confirm(title: String, message: String?, action: String)
    /// A notice with only [OK] ("Nothing to Clear").
    case message(title: String, message: String)
}

/// The book's words for the Clear actions.
public enum ClearMessages {
    public static let prepareQuestion = "Clear Entire Shopping List?"
    public static let nothingToClear = "Nothing to Clear"
    public static let prepareNothingListed =
        "Add items to the Shop tab by tapping them on the Prepare tab. Remove all items from the Shop tab by clicking Clear on the Prepare tab."
    public static let shopEmpty = "Add items using the Prepare tab."
    public static let shopNothingCollected = "Select items to be removed from the list before pressing Clear."
}
