import Foundation
import GroceryModel
import StoreLifecycle
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
    public private(set) var ui = UIState()
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
        if ui.messageLog.count > UIState.messageLogLimit { ui.messageLog.removeFirst(ui.messageLog.count - UIState.messageLogLimit) }
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
        if ui.helpVisible { return handleHelp(key) }
        if ui.fullTextVisible { return handleFullText(key) }
        if let dialog = app.dialog { return handleDialog(key, dialog) }
        if ui.prompt != nil { return handlePrompt(key) }
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

    /// A letter or Ctrl key that does nothing here says so, and where the keys are; it fades
    /// like any message. Other keys (arrows at an end, Esc with nothing to cancel) stay quiet.
    private func sayNoAction(_ key: Key) {
        let name: String
        switch key {
        case .character(" "): name = "Space"
        case .character(let character): name = String(character)
        case .control(let character): name = "Ctrl-\(character.uppercased())"
        default: return
        }
        app.hint("\(name): no action here — ? for help")
    }

    /// The keys of the screen shown, with no editor, dialog or overlay open.
    private func handleScreenKey(_ key: Key) -> Outcome {
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
            app.show(AppModel.Tab(rawValue: (app.tab.rawValue + AppModel.Tab.allCases.count - 1) % AppModel.Tab.allCases.count)!)
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

    // MARK: - Overlays

    /// `m`: the latest messages and the recent transitions in full, read fresh.
    private func openFullText() {
        app.cloud.refresh(force: true)
        ui.fullTextVisible = true
        ui.fullTextScroll = 0
    }

    /// Keys over the help or the messages in full: arrows, j k, pages and g G scroll; any other
    /// key closes. Returns whether the overlay stays open.
    private func scrollOverlay(_ key: Key, _ scroll: inout Int, last: Int) -> Bool {
        let page = max(1, screenHeight - 6)
        switch key {
        case .down, .character("j"): scroll += 1
        case .up, .character("k"): scroll -= 1
        case .pageDown, .character(" "): scroll += page
        case .pageUp: scroll -= page
        case .home, .character("g"): scroll = 0
        case .end, .character("G"): scroll = last
        case .resize: break
        default:
            scroll = 0
            return false
        }
        scroll = min(max(0, scroll), last)
        return true
    }

    private func handleHelp(_ key: Key) -> Outcome {
        let current = HelpView.section(for: app.tab, editing: app.editor != nil)
        ui.helpVisible = scrollOverlay(key, &ui.helpScroll, last: HelpView.maximumScroll(height: screenHeight, current: current))
        return .handled
    }

    private func handleFullText(_ key: Key) -> Outcome {
        let last = FullTextView.maximumScroll(self, width: screenWidth, height: screenHeight)
        ui.fullTextVisible = scrollOverlay(key, &ui.fullTextScroll, last: last)
        return .handled
    }

    // MARK: - Dialogs

    private func handleDialog(_ key: Key, _ dialog: Dialog) -> Outcome {
        let (buttons, _) = DialogButton.buttons(for: dialog)
        // A message taller than the terminal scrolls; the keys never answer the dialog.
        let last = DialogView.maximumScroll(dialog, width: screenWidth, height: screenHeight)
        let page = max(1, DialogView.visibleBodyCount(dialog, screenHeight: screenHeight) - 1)
        switch key {
        case .up: ui.dialogScroll = max(0, min(ui.dialogScroll, last) - 1); return .handled
        case .down: ui.dialogScroll = min(last, ui.dialogScroll + 1); return .handled
        case .pageUp: ui.dialogScroll = max(0, min(ui.dialogScroll, last) - page); return .handled
        case .pageDown: ui.dialogScroll = min(last, ui.dialogScroll + page); return .handled
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
                if character == "q" { app.cancelDialog(); return .handled }
                return .ignored
            }
            app.answerDialog(button.accepts)
        default: return .ignored
        }
        return .handled
    }

    // MARK: - Typing

    private func ask(_ kind: UIState.PromptKind, _ label: String, _ text: String = "") {
        ui.prompt = UIState.Prompt(kind: kind, label: label, field: TextField(text))
    }

    private func handlePrompt(_ key: Key) -> Outcome {
        guard var prompt = ui.prompt else { return .ignored }
        switch key {
        case .escape:
            ui.prompt = nil
            if prompt.kind == .search { app.currentList?.searchText = "" }
            if prompt.kind == .newEntry { app.editor?.cancelPicker() }
        case .enter:
            ui.prompt = nil
            do {
                try submit(prompt.kind, prompt.field.text)
            } catch {
                // Refused: the line stays open with what was typed, and says why.
                prompt.error = ErrorText.reason(error)
                ui.prompt = prompt
            }
        default:
            guard prompt.field.apply(key) else { return .ignored }
            ui.prompt = prompt
            if prompt.kind == .search { app.currentList?.searchText = prompt.field.text }  // live
        }
        return .handled
    }

    /// Acts on a line typed; throws when the action refuses it. A blank line does nothing.
    private func submit(_ kind: UIState.PromptKind, _ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .search: break  // already applied as typed
        case .addItem:
            guard !trimmed.isEmpty else { return }
            try app.currentList?.addItem(named: text)
        case .addEntry: try app.currentCatalog?.add(text)
        case .renameEntry: try app.currentCatalog?.renameSelected(to: text)
        case .editField(let field): try app.editor?.set(field, text)
        case .newEntry: try app.editor?.nameNewEntry(text)
        case .photoPath:
            guard !trimmed.isEmpty else { return }
            try app.editor?.attachPhoto(fromFile: trimmed)
        case .signIn:
            guard !trimmed.isEmpty else { return }
            try app.cloud.signIn(trimmed)
        case .newList:
            try app.createList(named: text)
        }
    }

    // MARK: - Lists

    private func handleList(_ list: Key, _ model: ItemListViewModel) -> Outcome {
        let page = max(1, model.viewportHeight - 1)
        switch list {
        case .up, .character("k"): model.moveSelection(by: -1)
        case .down, .character("j"): model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -page)
        case .pageDown: model.moveSelection(by: page)
        case .home, .character("g"): model.moveSelection(to: 0)
        case .end, .character("G"): model.moveSelection(to: model.rowCount - 1)
        case .character(" "): model.toggleSelected()
        case .enter, .character("e"):
            guard let id = model.selectedID else { return .ignored }
            app.openEditor(id)
            ui.editorRow = 0
        case .character("a"): ask(.addItem, "Add item:")
        case .character("d"): model.requestDeleteSelected()
        case .character("+"), .character("="): model.changeQuantity(by: 1)
        case .character("-"): model.changeQuantity(by: -1)
        case .character("C"): model.requestClear()
        case .character("o") where model.screen == .prepare: model.order = model.order == .byName ? .byLocation : .byName
        case .character("f") where model.screen == .prepare: model.onlyListed.toggle()
        case .character("/"): ask(.search, "Search:", model.searchText)
        case .character("n"): model.moveSelection(to: model.selection + 1 < model.rowCount ? model.selection + 1 : 0)
        case .character("N"): model.moveSelection(to: model.selection > 0 ? model.selection - 1 : model.rowCount - 1)
        case .escape:
            guard !model.searchText.isEmpty else { return .ignored }
            model.searchText = ""
        default: return .ignored
        }
        return .handled
    }

    // MARK: - Editor

    private func handleEditor(_ key: Key, _ editor: ItemEditorViewModel) -> Outcome {
        let rows = EditorView.rows(of: editor)
        ui.editorRow = min(ui.editorRow, rows.count - 1)
        switch key {
        case .up, .character("k"): ui.editorRow = max(0, ui.editorRow - 1)
        case .down, .character("j"), .tab: ui.editorRow = min(rows.count - 1, ui.editorRow + 1)
        case .backTab: ui.editorRow = max(0, ui.editorRow - 1)
        case .enter, .character("e"):
            switch rows[ui.editorRow] {
            case .field(let field) where ItemEditorViewModel.kind(of: field) != nil: editor.openPicker(for: field)
            case .field(let field): ask(.editField(field), "\(field.label):", editor.values[field] ?? "")
            case .photo: ask(.photoPath, "Photo file:")
            }
        case .character("p"): ask(.photoPath, "Photo file:")
        case .character("x"): editor.removePhoto()
        case .character("s"): editor.save()
        case .character("m"): openFullText()
        case .character("q"), .escape: app.leaveEditor()  // asks first when there are unsaved changes
        case .character("?"):
            ui.helpVisible = true
            ui.helpScroll = 0
        default: return .ignored
        }
        return .handled
    }

    /// The unit and location picker: arrows, j k, pages, g G move; letters jump to the first
    /// entry they spell (``TypeAhead``); while letters are being typed, j k g G q and Space are
    /// letters too, and `/` starts typing for a name that begins with one of them.
    private func handlePicker(_ key: Key, _ editor: ItemEditorViewModel) -> Outcome {
        guard let picker = editor.picker else { return .ignored }
        let page = max(1, EditorView.pickerRows(picker, height: screenHeight - AppScreen.chrome) - 1)
        if case .character(let character) = key, picker.typeAhead.isUnderWay(now: Message.now), character != "/" {
            typeAhead(character, editor)
            return .handled
        }
        switch key {
        case .up, .character("k"): editor.movePicker(by: -1)
        case .down, .character("j"): editor.movePicker(by: 1)
        case .pageUp: editor.movePicker(by: -page)
        case .pageDown: editor.movePicker(by: page)
        case .home, .character("g"): editor.movePicker(by: -picker.options.count)
        case .end, .character("G"): editor.movePicker(by: picker.options.count)
        case .enter, .character(" "):
            editor.choosePickedOption()
            if let field = editor.namingNewEntry { ask(.newEntry, "New \(field.label.lowercased()):") }
        case .escape, .character("q"): editor.cancelPicker()
        case .character("/"): editor.beginTypeAheadInPicker()
        case .character(let character): typeAhead(character, editor)
        default: return .ignored
        }
        return .handled
    }

    private func typeAhead(_ character: Character, _ editor: ItemEditorViewModel) {
        guard !editor.typeAheadInPicker(character) else { return }
        let typed = editor.picker?.typeAhead.text ?? String(character)
        app.hint("No \(editor.picker.map { $0.field.label.lowercased() } ?? "entry") matches \"\(typed)\"")
    }

    // MARK: - Lists of lists

    /// Keys over the list switcher, as over the editor's pickers: arrows, j k, pages, g G move;
    /// letters jump to the list they spell (while typing, j k g G q and Space are letters too;
    /// `/` starts typing); Enter opens the list or asks the new list's name; Esc or `q` closes.
    private func handleListSwitcher(_ key: Key) -> Outcome {
        guard let switcher = app.listSwitcher else { return .ignored }
        let page = max(1, screenHeight - AppScreen.chrome - 3)
        if case .character(let character) = key, switcher.typeAhead.isUnderWay(now: Message.now), character != "/" {
            listTypeAhead(character, switcher)
            return .handled
        }
        switch key {
        case .up, .character("k"): app.moveListSwitcher(by: -1)
        case .down, .character("j"): app.moveListSwitcher(by: 1)
        case .pageUp: app.moveListSwitcher(by: -page)
        case .pageDown: app.moveListSwitcher(by: page)
        case .home, .character("g"): app.moveListSwitcher(to: 0)
        case .end, .character("G"): app.moveListSwitcher(to: Int.max)
        case .enter, .character(" "):
            if app.chooseInListSwitcher() { ask(.newList, "New list:") }
        case .escape, .character("q"): app.closeListSwitcher()
        case .character("/"): app.beginTypeAheadInListSwitcher()
        case .character(let character): listTypeAhead(character, switcher)
        default: return .ignored
        }
        return .handled
    }

    private func listTypeAhead(_ character: Character, _ switcher: ListSwitcher) {
        guard !app.typeAheadInListSwitcher(character) else { return }
        app.hint("No list matches \"\(app.listSwitcher?.typeAhead.text ?? String(character))\"")
    }

    // MARK: - Units, locations, aisles

    private func handleCatalog(_ key: Key, _ model: CatalogListViewModel) -> Outcome {
        switch key {
        case .up, .character("k"): model.moveSelection(by: -1)
        case .down, .character("j"): model.moveSelection(by: 1)
        case .pageUp: model.moveSelection(by: -10)
        case .pageDown: model.moveSelection(by: 10)
        case .home, .character("g"): model.moveSelection(by: -model.entries.count)
        case .end, .character("G"): model.moveSelection(by: model.entries.count)
        case .character("a"): ask(.addEntry, "Add \(model.kind.noun):")
        case .enter, .character("e"), .character("r"):
            guard let entry = model.selectedEntry else { return .ignored }
            ask(.renameEntry, "Rename \(entry.name) to:", entry.name)
        case .character("d"): model.requestDeleteSelected()
        default: return .ignored
        }
        return .handled
    }

    // MARK: - Cloud

    private func handleCloud(_ key: Key) -> Outcome {
        let cloud = app.cloud
        switch key {
        case .character("c"):
            cloud.toggleSync()
        case .character("s"): cloud.syncNow()
        case .character("o"): cloud.setOffline(!(cloud.status?.cloud?.offline ?? false))
        case .character("i"): ask(.signIn, "Sign in to account:", app.summary.account ?? "")
        case .character("O"): cloud.signOut()
        case .character("R"): cloud.requestRebuild()
        case .character("X"): cloud.requestStartOver()
        case .character("K"): cloud.requestRelease()
        default: return .ignored
        }
        return .handled
    }
}
