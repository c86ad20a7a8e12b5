import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// The dialog shown over every screen, and its answers.
extension AppModel {
    /// The dialog shown now: long work's progress and the merge prompt first (over any screen),
    /// then an app-wide notice, then the screen's own (the editor's when it is open).
    public var dialog: Dialog? {
        if isCloudDialogShown { return cloud.dialog }
        if let notice { return notice }
        if let listMergeDialog { return listMergeDialog }
        if let undoAsked { return .confirm(title: "Undo the Add?", message: undoAsked, action: "Undo") }
        if let pastedItems {
            return .confirm(
                title: "Add \(pastedItems.count) Items?",
                message: "One item a line: " + pastedItems.joined(separator: ", ") + ".", action: "Add")
        }
        if let editor { return editor.dialog }
        return currentList?.dialog ?? currentCatalog?.dialog
    }

    var isCloudDialogShown: Bool { cloud.dialog != nil && (tab == .cloud || cloud.isDialogAppWide) }

    /// Answers the dialog shown: `true` for its action, `false` for the other button or Esc.
    public func answerDialog(_ accepted: Bool) {
        if isCloudDialogShown {
            cloud.answerDialog(accepted)
        } else if notice != nil {
            notice = nil
        } else if listMergeAsked != nil {
            answerListMerge(accepted)
        } else if undoAsked != nil {
            answerUndo(accepted)
        } else if pastedItems != nil {
            answerPastedItems(accepted)
        } else if let editor {
            if editor.askingToRemovePhoto {
                editor.answerRemovePhoto(accepted)
            } else if editor.askingAboutRemoteChanges.asked {
                let leaving = editor.askingAboutRemoteChanges.leaving
                if editor.answerRemoteChanges(keepMine: accepted), leaving {
                    say(editor.message ?? "Saved")
                    closeEditor()  // saved: nothing is left to save
                }
            } else if editor.dialog != nil {
                // "Unsaved changes to …": Save, or Discard.
                closeEditor(discard: !accepted)
            }
        } else {
            if let list = currentList { list.answerDialog(accepted) } else { currentCatalog?.answerDialog(accepted) }
        }
    }

    /// Closes the dialog shown without acting: Esc or `q`. A choice is not answered (no merge,
    /// and cloud sync stays as it was), a confirmation is declined, a notice is dismissed.
    public func cancelDialog() {
        if isCloudDialogShown {
            cloud.cancelDialog()
        } else if notice != nil {
            notice = nil
        } else if listMergeAsked != nil {
            answerListMerge(false)
        } else if undoAsked != nil {
            answerUndo(false)
        } else if pastedItems != nil {
            answerPastedItems(false)
        } else if let editor {
            editor.dismissDialog()  // back to editing, the edits kept
        } else {
            if let list = currentList { list.answerDialog(false) } else { currentCatalog?.answerDialog(false) }
        }
    }

    /// Answers a typed confirmation with the text typed.
    public func answerTyped(_ text: String) {
        cloud.answerTyped(text)
    }

    /// A paste of several lines into Add: asks "Add 3 Items?" (one item a line).
    public func askToAddPastedLines(_ lines: [String]) {
        guard isInputEnabled, currentList != nil else { return }
        pastedItems = lines
    }

    /// The answer to "Add 3 Items?": each line an item; one refused (a name in use) is told
    /// and the others are added.
    func answerPastedItems(_ accepted: Bool) {
        guard let lines = pastedItems else { return }
        pastedItems = nil
        guard accepted, let list = currentList else { return say("Nothing added") }
        var added = 0
        var refused: [String] = []
        for line in lines {
            do {
                if try list.addItem(named: line) != nil { added += 1 }
            } catch {
                refused.append("\(line): \(ErrorText.reason(error))")
            }
        }
        say(
            "Added \(added) item\(added == 1 ? "" : "s")"
                + (refused.isEmpty ? "" : "; not added: " + refused.joined(separator: "; ")))
    }
}
