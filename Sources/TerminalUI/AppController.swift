import Foundation
import GroceryModel
import TextAndFiles
import ViewModels

/// Turns keys into actions on the app model: the keyboard side of the full-screen app, with no
/// terminal in it (tests send keys and read the state).
///
/// Keys go, in order, to: nothing while the store changes (they are dropped, never applied to
/// the old store); the help overlay; the dialog shown; the line being typed; the editor's
/// picker; the editor; the global keys (tabs, help, undo, quit); the screen shown.
public final class AppController {
    public enum Outcome: Equatable, Sendable { case handled, ignored, quit }

    public let app: AppModel
    public internal(set) var ui = UIState()
    /// The terminal's size: keys scroll by it (the help), and none acts on a screen too small
    /// to show what it would change.
    public var screenHeight = 24
    public var screenWidth = 80

    private var isScreenTooSmall: Bool {
        screenWidth < AppScreen.minimumSize.width || screenHeight < AppScreen.minimumSize.height
    }

    public init(app: AppModel) {
        self.app = app
    }

    /// The dialog shown now, with the focus reset (and its message scrolled to the top) when it
    /// is a new one.
    public func syncDialogFocus() {
        let dialog = app.dialog
        guard dialog != ui.focusedDialog else { return }
        ui.focusedDialog = dialog
        ui.dialogFocus = dialog.map { DialogButton.buttons(for: $0).focus } ?? 0
        ui.dialogField = TextField()
        ui.dialogScroll = 0
    }

    /// Keeps the message the message line shows now in the log `m` shows (the app's loop calls
    /// it after each update; ``handle(_:)`` after each key).
    public func noteMessage(_ message: Message?) {
        guard let message, message.serial > (ui.messageLog.last?.serial ?? 0) else { return }
        ui.messageLog.append(message)
        if ui.messageLog.count > UIState.messageLogLimit {
            ui.messageLog.removeFirst(ui.messageLog.count - UIState.messageLogLimit)
        }
    }

    @discardableResult
    public func handle(_ key: Key) -> Outcome {
        guard app.isInputEnabled else { return .ignored }
        // "Terminal too small" hides everything: only q (quit, saving an open edit) acts.
        if isScreenTooSmall {
            guard key == .character("q") else { return .ignored }
            app.closeEditor()
            return app.editor == nil ? .quit : .ignored
        }
        syncDialogFocus()
        defer { noteMessage(app.screenMessage) }
        if case .mouse(let event) = key { return handleMouse(event) }
        if ui.helpVisible { return handleHelp(key) }
        if ui.fullTextVisible { return handleFullText(key) }
        if ui.historyVisible { return handleItemHistory(key) }
        if let dialog = app.dialog { return handleDialog(key, dialog) }
        if ui.prompt != nil { return handlePrompt(key) }
        // As in htop: F1 is help, F10 quits (leaves the editor as q does; closes a picker as Esc).
        if key == .function(1) {
            ui.helpVisible = true
            ui.helpScroll = 0
            return .handled
        }
        if key == .function(10), app.listSwitcher == nil, app.editor?.picker == nil {  // pickers close on it
            if app.editor != nil { return handle(.character("q")) }
            return .quit
        }
        let outcome: Outcome
        if app.listSwitcher != nil {
            outcome = handleListSwitcher(key)
        } else if let editor = app.editor {
            outcome = editor.picker != nil ? handlePicker(key, editor) : handleEditor(key, editor)
        } else {
            outcome = handleScreenKey(key)
        }
        if outcome == .ignored { sayNoAction(key) }
        return outcome
    }

    /// A key that does nothing here says so, and where the keys are (a paste, that no field
    /// takes it); it fades like any message. Moves at an end stay quiet.
    func sayNoAction(_ key: Key) {
        switch key {
        case .resize, .up, .down, .left, .right, .pageUp, .pageDown, .home, .end: return
        case .paste: return app.hint("Paste ignored: no text field is open (a adds an item)")
        case .character(" "): app.hint("Space: no action here — ? or F1 for help")
        default: app.hint("\(key.name): no action here — ? or F1 for help")
        }
    }

    /// The keys of the screen shown, with no editor, dialog or overlay open.
    func handleScreenKey(_ key: Key) -> Outcome {
        switch key {
        case .character("?"):
            ui.helpVisible = true
            ui.helpScroll = 0
            return .handled
        case .character("m"):
            openFullText()
            return .handled
        case .character("q"), .character("Q"):
            return .quit
        case .character("u"):
            app.undo()
            return .handled
        case .character("U"), .control("r"):
            app.redo()
            return .handled
        case .character("L"):
            app.openListSwitcher()
            return .handled
        case .character(let digit) where ("1"..."6").contains(digit):
            app.show(AppModel.Tab(rawValue: Int(String(digit))! - 1)!)
            return .handled
        case .tab:
            app.show(AppModel.Tab(rawValue: (app.tab.rawValue + 1) % AppModel.Tab.allCases.count)!)
            return .handled
        case .backTab:
            app.show(
                AppModel.Tab(
                    rawValue: (app.tab.rawValue + AppModel.Tab.allCases.count - 1) % AppModel.Tab.allCases.count)!)
            return .handled
        default:
            break
        }
        switch app.tab {
        case .prepare, .shop: return handleList(key, app.currentList!)
        case .units: return handleCatalog(key, app.units)
        case .homeLocations: return handleCatalog(key, app.homeLocations)
        case .shopAisles: return handleCatalog(key, app.shopAisles)
        case .cloud: return handleCloud(key)
        }
    }
}
