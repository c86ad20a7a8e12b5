import Foundation
import ViewModels

/// A dialog's buttons as the terminal shows them: a label, its hotkey, and whether it is the
/// dialog's action (`answerDialog(true)`) or the way out (`false`).
public struct DialogButton: Equatable, Sendable {
    public let label: String
    public let hotkey: Character
    public let accepts: Bool

    /// The buttons of `dialog`, left to right, and the one focused first (never a destructive
    /// action: Enter alone does not delete).
    public static func buttons(for dialog: Dialog) -> (buttons: [DialogButton], focus: Int) {
        switch dialog {
        case .confirm(_, _, let action):
            return (
                [
                    DialogButton(label: "Cancel", hotkey: "n", accepts: false),
                    DialogButton(label: action, hotkey: "y", accepts: true),
                ], 0
            )
        case .choice(_, _, let decline, let accept):
            let declineKey = decline.lowercased().first ?? "n"
            let acceptKey = accept.lowercased().first ?? "y"
            let distinct = declineKey != acceptKey
            return (
                [
                    DialogButton(label: decline, hotkey: distinct ? declineKey : "n", accepts: false),
                    DialogButton(label: accept, hotkey: distinct ? acceptKey : "y", accepts: true),
                ], 1
            )
        case .message:
            return ([DialogButton(label: "OK", hotkey: "o", accepts: true)], 0)
        case .typedConfirmation(_, _, _, let action):
            return (
                [
                    DialogButton(label: "Cancel", hotkey: "\u{1B}", accepts: false),
                    DialogButton(label: action, hotkey: "\r", accepts: true),
                ], 1
            )
        case .progress:
            return ([], 0)
        }
    }

    /// "[y] Clear", "[Esc] Cancel", "[Enter] Start Over".
    public var caption: String {
        switch hotkey {
        case "\u{1B}": "[Esc] \(label)"
        case "\r": "[Enter] \(label)"
        default: "[\(hotkey)] \(label)"
        }
    }
}
