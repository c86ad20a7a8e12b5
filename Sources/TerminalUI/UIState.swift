import Foundation
import ViewModels

/// What the terminal front end keeps besides the app model: the text being typed, the help
/// overlay, which dialog button has the focus, the item editor's selected field.
public struct UIState: Equatable, Sendable {
    /// What a line of text typed at the bottom of the screen is for.
    public enum PromptKind: Equatable, Sendable {
        case search
        case addItem
        case addEntry
        case renameEntry
        case editField(ItemEditorViewModel.Field)
        case newEntry
        case photoPath
        case signIn
        case newList
        case addShop
    }

    public struct Prompt: Equatable, Sendable {
        public var kind: PromptKind
        public var label: String
        public var field: TextField
        /// Why the last Enter was refused ("a unit named "kg" exists already"), shown above the
        /// line; the text stays to be fixed.
        public var error: String?
    }

    public var prompt: Prompt?
    public var helpVisible = false
    /// The first line of the help shown: it scrolls when the terminal is smaller than it.
    public var helpScroll = 0
    /// Whether the line being typed edits something shown (an editor field, a catalog entry's
    /// name): then it is typed in place there.
    public var editsInPlace: Bool {
        switch prompt?.kind {
        case .editField?, .renameEntry?: true
        default: false
        }
    }
    /// How far the Cloud screen is scrolled (a terminal shorter than its rows).
    public var cloudScroll = 0
    /// The latest messages and transitions in full (`m`), over the screen.
    public var fullTextVisible = false
    /// Its first line shown.
    public var fullTextScroll = 0
    /// The edited item's history (`h` in the editor), over the screen.
    public var historyVisible = false
    /// Its first line shown.
    public var historyScroll = 0
    /// The messages the message line took, oldest first (the last ``messageLogLimit``), for `m`.
    public var messageLog: [Message] = []
    public static let messageLogLimit = 30
    /// The first line of the dialog's message shown: a message taller than the terminal scrolls.
    public var dialogScroll = 0
    /// The focused button of the dialog shown.
    public var dialogFocus = 0
    /// The phrase typed into a typed confirmation.
    public var dialogField = TextField()
    /// The dialog the focus belongs to: a new dialog resets the focus.
    public var focusedDialog: Dialog?
    /// The item editor's selected row (``EditorView/rows(of:)``).
    public var editorRow = 0

    public init() {}
}
