import Foundation
import TextAndFiles
import ViewModels

/// The line being typed at the bottom (add, search, rename, sign in…) and what Enter does with it.
extension AppController {
    func ask(_ kind: UIState.PromptKind, _ label: String, _ text: String = "") {
        ui.prompt = UIState.Prompt(kind: kind, label: label, field: TextField(text))
    }

    func handlePrompt(_ key: Key) -> Outcome {
        guard var prompt = ui.prompt else { return .ignored }
        switch key {
        case .escape:
            ui.prompt = nil
            if prompt.kind == .search { app.currentList?.searchText = "" }
            if prompt.kind == .newEntry { app.editor?.cancelPicker() }
        case .paste(let text) where prompt.kind == .addItem:
            // Several lines into Add: one item a line, asked once. One line: text in the field.
            var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard lines.count > 1 else {
                prompt.field.apply(key)
                ui.prompt = prompt
                return .handled
            }
            let typed = prompt.field.text.trimmingCharacters(in: .whitespaces)
            if !typed.isEmpty { lines[0] = typed + " " + lines[0] }
            ui.prompt = nil
            app.askToAddPastedLines(lines)
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
    func submit(_ kind: UIState.PromptKind, _ text: String) throws {
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
        case .addShop:
            guard !trimmed.isEmpty else { return }
            try app.addShop(named: text)
        }
    }
}
