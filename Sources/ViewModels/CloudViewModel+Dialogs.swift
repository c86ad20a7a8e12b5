import Foundation
import GroceryModel
import StoreLifecycle

/// The answers to the Cloud screen's dialogs: the merge prompt, confirmations, the typed one.
extension CloudViewModel {
    /// Closes the dialog without acting (Esc, `q`): nothing changes. "Merge with Cloud?" asked
    /// when turning sync on leaves sync off; asked because another terminal turned it on, it
    /// leaves the local data where it is, to be merged later.
    public func cancelDialog() {
        guard let dialog else { return }
        if case .progress = dialog { return }  // long work cannot be cancelled halfway
        let action = pending
        self.dialog = nil
        pending = nil
        if case .typedConfirmation = dialog { message = "Not confirmed; nothing was deleted" }
        if case .merge? = action {
            message =
                coordinator.current.role == .local
                ? "Cloud sync stays off; nothing changed"
                : "Not merged: your local data stays on this device (turn cloud sync off and on again to be asked again)"
        }
    }

    /// The answer to a confirm or choice dialog (`true`: its action), or OK to a message.
    public func answerDialog(_ accepted: Bool) {
        guard let dialog else { return }
        if case .progress = dialog { return }  // long work has no answer
        let action = pending
        self.dialog = nil
        pending = nil
        switch (dialog, action) {
        case (.choice, .merge?):
            enable(merge: accepted)
        case (.confirm, .rebuild?) where accepted:
            perform("Rebuilding from the cloud") { [coordinator] _ in
                let kept = try coordinator.rebuild()
                return "Rebuilt from the cloud; the old store is kept at \(kept?.lastPathComponent ?? "?")"
            }
        case (.confirm, .release(let refusal)?) where accepted:
            release(refusal)
        case (.confirm, .mergeKept(let path)?) where accepted:
            mergeKept(path)
        case (.confirm, .signOut?):
            if accepted { signOut() } else { message = "Still signed in" }
        case (.confirm, .disable?) where accepted:
            perform("Turning off cloud sync") { [coordinator] _ in
                try coordinator.disable().summary
            }
        default:
            break
        }
    }

    /// The answer to the typed confirmation: the text typed. Anything but the phrase cancels.
    public func answerTyped(_ text: String) {
        guard case .typedConfirmation(_, _, let phrase, _) = dialog, case .startOver? = pending else { return }
        // A mistyped phrase keeps the dialog open, with what was typed: what is typed next
        // goes on into the field, never to the screen behind it.
        guard text.trimmingCharacters(in: .whitespaces).lowercased() == phrase else {
            message = "Not confirmed: type \"\(phrase)\" exactly (Esc cancels); nothing was deleted"
            return
        }
        dialog = nil
        pending = nil
        perform("Starting over") { [coordinator] progress in
            let result = try coordinator.startOver(progress: progress)
            return
                "Started over: epoch \(result.epoch), \(result.deletedFiles) file\(result.deletedFiles == 1 ? "" : "s") deleted"
        }
    }

    /// The dialog went away on its own (a store transition).
    public func dismissDialog() {
        dialog = nil
        pending = nil
    }
}
