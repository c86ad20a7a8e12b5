import Foundation
import GroceryModel
import TextAndFiles
import ViewModels

/// The item editor: one row per field, the selected one highlighted, a * on edited ones, a !
/// on the one a save was refused for, with the reason under the title (else who added the item
/// and who changed it last); the picker of unit and
/// locations opens over it. When the terminal is too short for every field, the fields scroll so
/// that the selected one always shows, and the title line says which of how many it is.
public enum EditorView {
    public enum Row: Equatable, Sendable {
        case field(ItemEditorViewModel.Field)
        case photo
    }

    public static func rows(of editor: ItemEditorViewModel) -> [Row] {
        editor.fields.map(Row.field) + [.photo]
    }

    /// - Parameter editing: the text being typed into the selected field, edited in place.
    static func draw(
        _ editor: ItemEditorViewModel, selected: Int, editing: TextField? = nil, into screen: inout ScreenBuffer,
        top: Int, height: Int, now: Date
    ) {
        let width = screen.width
        screen.put(
            " Edit item" + (editor.hasUnsavedChanges ? " (edited)" : ""), row: top, column: 0,
            style: CellStyle(bold: true, color: .section))
        if let error = editor.fieldError {
            screen.put(
                " ! " + TextWidth.truncate(error.description, to: width - 4), row: top + 1, column: 0,
                style: CellStyle(bold: true, color: .warning))
        } else if let authors = editor.authors(now: now) {
            screen.put(
                " " + TextWidth.truncate(authors, to: width - 2), row: top + 1, column: 0, style: CellStyle(dim: true))
        }
        let labelWidth = width >= 60 ? 16 : 10
        let rows = rows(of: editor)
        let visible = max(1, height - 2)
        let first = firstShownRow(selected: selected, count: rows.count, visible: visible)
        if rows.count > visible, editor.picker == nil {
            screen.putRight(
                "\(selected + 1)/\(rows.count) \(first > 0 ? "↑" : " ")\(first + visible < rows.count ? "↓" : " ")",
                row: top, style: CellStyle(dim: true))
        }
        for (offset, row) in rows.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let y = top + 2 + offset
            let isSelected = index == selected
            let style = CellStyle(reverse: isSelected)
            if isSelected { screen.fill(row: y, style: style) }
            let label: String
            let value: String
            var isWrong = false
            switch row {
            case .field(let field):
                isWrong = editor.fieldError?.field == field
                label = editor.label(of: field) + (isWrong ? "!" : editor.touched.contains(field) ? "*" : "")
                let text = editor.values[field] ?? ""
                value =
                    (text.isEmpty
                        ? (ItemEditorViewModel.kind(of: field) != nil ? "(none) ▸" : "")
                        : text + (ItemEditorViewModel.kind(of: field) != nil ? " ▸" : ""))
                    + (editor.remoteChanges[field].map { "   ≠ \($0.summary)" } ?? "")
            case .photo:
                label = "Photo"
                value = editor.photoDescription + (width >= 60 ? "   (Enter/p attach, x remove)" : "")
            }
            let labelStyle =
                isWrong
                ? CellStyle(bold: true, reverse: isSelected, color: .warning)
                : CellStyle(reverse: isSelected, dim: !isSelected)
            screen.put(" " + TextWidth.truncate(label, to: labelWidth - 1), row: y, column: 0, style: labelStyle)
            if isSelected, let editing, case .field = row {
                // Typed where it is shown, with the terminal's cursor in it.
                screen.put(
                    String(repeating: " ", count: max(0, width - labelWidth - 1)), row: y, column: labelWidth + 1)
                DialogView.drawField(
                    editing, into: &screen, row: y, column: labelWidth + 1, width: width - labelWidth - 2)
            } else {
                screen.put(
                    TextWidth.truncate(value, to: width - labelWidth - 2), row: y, column: labelWidth + 1, style: style)
            }
        }
        if let picker = editor.picker {
            drawPicker(picker, title: editor.label(of: picker.field), into: &screen, top: top, height: height)
        }
    }

    /// The first field shown when `visible` of `count` fit: the selected one in the middle, as
    /// the lists scroll.
    static func firstShownRow(selected: Int, count: Int, visible: Int) -> Int {
        min(max(0, selected - visible / 2), max(0, count - visible))
    }

    /// How many of the picker's options show in a content area `height` tall.
    static func pickerRows(_ picker: CatalogPicker, height: Int) -> Int {
        min(picker.options.count, max(1, height - 2))
    }

    static func drawPicker(
        _ picker: CatalogPicker, title: String, into screen: inout ScreenBuffer, top: Int, height: Int
    ) {
        screen.pickerBox(
            title: title, labels: picker.options.map(\.label), selection: picker.selection,
            dimmed: { picker.options[$0] == .clear || picker.options[$0] == .new }, top: top, height: height)
    }
}
