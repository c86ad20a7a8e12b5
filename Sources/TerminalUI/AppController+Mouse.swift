import ViewModels

/// The mouse, as in htop and lazygit: the wheel scrolls whatever the keys ↑↓ move, a click
/// selects a row or switches to the tab it is on, a double click edits the item (or opens the
/// field) under it. While a dialog, a field, the help or the messages are open, a click does
/// nothing there: they are answered with keys.
extension AppController {
    func handleMouse(_ event: MouseEvent) -> Outcome {
        switch event.kind {
        case .wheelUp, .wheelDown:
            let key: Key = event.kind == .wheelUp ? .up : .down
            for _ in 0..<3 { _ = handle(key) }
            return .handled
        case .click, .doubleClick:
            guard app.dialog == nil, ui.prompt == nil, !ui.helpVisible, !ui.fullTextVisible, !ui.historyVisible,
                app.listSwitcher == nil
            else { return .handled }
            if event.y == 0 {
                if app.editor == nil, let tab = AppScreen.tab(at: event.x, app: app, width: screenWidth) {
                    app.show(tab)
                }
                return .handled
            }
            if let editor = app.editor {
                guard editor.picker == nil else { return .handled }
                return clickEditor(editor, event)
            }
            if let list = app.currentList { return clickList(list, event) }
            return .handled
        }
    }

    /// A click on a row of Prepare or Shop selects it; a double click edits it.
    private func clickList(_ list: ItemListViewModel, _ event: MouseEvent) -> Outcome {
        let index = event.y - 1 - ItemListView.filterLines(list).count
        let lines = list.visibleLines
        guard index >= 0, index < lines.count, case .row(let position) = lines[index].line else { return .handled }
        list.moveSelection(to: position)
        if event.kind == .doubleClick { return handle(.enter) }
        return .handled
    }

    /// A click on a field of the editor selects it; a double click edits it.
    private func clickEditor(_ editor: ItemEditorViewModel, _ event: MouseEvent) -> Outcome {
        let rows = EditorView.rows(of: editor)
        let visible = max(1, screenHeight - AppScreen.chrome - 2)
        let first = EditorView.firstShownRow(selected: ui.editorRow, count: rows.count, visible: visible)
        let index = first + event.y - 3
        guard index >= first, index < min(rows.count, first + visible) else { return .handled }
        ui.editorRow = index
        if event.kind == .doubleClick { return handle(.enter) }
        return .handled
    }
}
