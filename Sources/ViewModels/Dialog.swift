import Foundation

/// A dialog a screen shows, as state: the screens draw it and send the answer back
/// (`answerDialog(true)` for its action, `false` for the other button or Esc).
public enum Dialog: Equatable, Sendable {
    /// A question with an action ("Clear Entire Shopping List?" [Cancel] [Clear]).
    case confirm(title: String, message: String?, action: String)
    /// A question with two answers, neither a plain cancel ("Merge with Cloud?" [Don't Merge] [Merge]).
    case choice(title: String, message: String, decline: String, accept: String)
    /// A destructive action confirmed by typing a phrase ("start over"); the answer is the text.
    case typedConfirmation(title: String, message: String, phrase: String, action: String)
    /// A notice with only [OK] ("Nothing to Clear").
    case message(title: String, message: String)
    /// Long work under way (seeding, rebuild, start over): no buttons, input waits.
    case progress(title: String, done: Int, total: Int)

    public var title: String {
        switch self {
        case .confirm(let title, _, _), .choice(let title, _, _, _), .typedConfirmation(let title, _, _, _),
            .message(let title, _), .progress(let title, _, _):
            title
        }
    }
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

/// Apple's words for cloud sync's dialogs.
public enum CloudMessages {
    public static let mergeQuestion = "Merge with Cloud?"
    public static let mergeExplanation =
        "This will move your existing data into the cloud. If you don't merge now, you can merge later by turning cloud sync off and on again."
    public static let preferenceChanged = "Cloud Sync Preference Changed"
    public static let preferenceChangedExplanation = "Your preference on cloud sync changed — content has been updated."
    public static let startOverPhrase = "start over"
}
