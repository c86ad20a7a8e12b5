import ViewModels

/// Keys over a dialog: buttons, typed confirmations, a message that scrolls.
extension AppController {
    func handleDialog(_ key: Key, _ dialog: Dialog) -> Outcome {
        let (buttons, _) = DialogButton.buttons(for: dialog)
        // A message taller than the terminal scrolls; the keys never answer the dialog.
        let last = DialogView.maximumScroll(dialog, width: screenWidth, height: screenHeight)
        let page = max(1, DialogView.visibleBodyCount(dialog, screenHeight: screenHeight) - 1)
        switch key {
        case .up:
            ui.dialogScroll = max(0, min(ui.dialogScroll, last) - 1)
            return .handled
        case .down:
            ui.dialogScroll = min(last, ui.dialogScroll + 1)
            return .handled
        case .pageUp:
            ui.dialogScroll = max(0, min(ui.dialogScroll, last) - page)
            return .handled
        case .pageDown:
            ui.dialogScroll = min(last, ui.dialogScroll + page)
            return .handled
        default: break
        }
        if case .typedConfirmation = dialog {
            switch key {
            case .enter: app.answerTyped(ui.dialogField.text)
            case .escape: app.cancelDialog()
            default: return ui.dialogField.apply(key) ? .handled : .ignored
            }
            return .handled
        }
        guard !buttons.isEmpty else { return .ignored }  // progress: wait
        switch key {
        case .left, .backTab: ui.dialogFocus = (ui.dialogFocus + buttons.count - 1) % buttons.count
        case .right, .tab: ui.dialogFocus = (ui.dialogFocus + 1) % buttons.count
        case .enter, .character(" "): app.answerDialog(buttons[min(ui.dialogFocus, buttons.count - 1)].accepts)
        case .escape: app.cancelDialog()
        case .character(let character):
            // Only an explicit choice acts; `q` (unless a button's key) cancels, as Esc does.
            guard let button = buttons.first(where: { $0.hotkey == Character(character.lowercased()) }) else {
                if character == "q" {
                    app.cancelDialog()
                    return .handled
                }
                return .ignored
            }
            app.answerDialog(button.accepts)
        default: return .ignored
        }
        return .handled
    }
}
