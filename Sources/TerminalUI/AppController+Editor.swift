import ViewModels

/// Keys over the item editor and its unit and location pickers.
extension AppController {
    func handleEditor(_ key: Key, _ editor: ItemEditorViewModel) -> Outcome {
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
        case .character("x"): editor.requestRemovePhoto()
        case .character("s"): editor.requestSave()
        case .character("m"): openFullText()
        case .character("h"):
            ui.historyVisible = true
            ui.historyScroll = 0
        case .character("q"), .escape: app.leaveEditor()  // asks first when there are unsaved changes
        case .character("?"):
            ui.helpVisible = true
            ui.helpScroll = 0
        default: return .ignored
        }
        return .handled
    }

    /// The unit and location picker (``ChooserKey``); choosing "new…" asks the new entry's name.
    func handlePicker(_ key: Key, _ editor: ItemEditorViewModel) -> Outcome {
        guard let picker = editor.picker else { return .ignored }
        let page = max(1, EditorView.pickerRows(picker, height: screenHeight - AppScreen.chrome) - 1)
        guard let action = ChooserKey(key, page: page) else { return .ignored }
        switch action {
        case .move(let delta): editor.movePicker(by: delta)
        case .first: editor.movePicker(by: -picker.options.count)
        case .last: editor.movePicker(by: picker.options.count)
        case .choose:
            editor.choosePickedOption()
            if let field = editor.namingNewEntry { ask(.newEntry, "New \(field.label.lowercased()):") }
        case .cancel: editor.cancelPicker()
        case .type(let character): typeAhead(character, editor)
        }
        return .handled
    }

    func typeAhead(_ character: Character, _ editor: ItemEditorViewModel) {
        guard !editor.typeAheadInPicker(character) else { return }
        let typed = editor.picker?.typeAhead.text ?? String(character)
        app.hint("No \(editor.picker.map { $0.field.label.lowercased() } ?? "entry") matches \"\(typed)\"")
    }
}
