import Foundation
import TextAndFiles

/// Drawing helpers the screens share: boxes, wrapped text, right-aligned text.
extension ScreenBuffer {
    /// Draws a framed box and clears its inside.
    public mutating func box(
        top: Int, left: Int, width: Int, height: Int, title: String? = nil, style: CellStyle = .plain
    ) {
        guard width >= 2, height >= 2 else { return }
        for y in top..<(top + height) {
            let line: String
            if y == top {
                line = "┌" + String(repeating: "─", count: width - 2) + "┐"
            } else if y == top + height - 1 {
                line = "└" + String(repeating: "─", count: width - 2) + "┘"
            } else {
                line = "│" + String(repeating: " ", count: width - 2) + "│"
            }
            put(line, row: y, column: left, style: style)
        }
        if let title, width > 6 {
            put(
                " " + TextWidth.truncate(title, to: width - 6) + " ", row: top, column: left + 2,
                style: CellStyle(bold: true))
        }
    }

    /// A picker: a framed list of `labels` centred in the rows from `top` (`height` of them), the
    /// `selection` reversed and kept in view; `dimmed` labels (such as "new…") drawn dim.
    public mutating func pickerBox(
        title: String, labels: [String], selection: Int, dimmed: (Int) -> Bool, top: Int, height: Int
    ) {
        let width = min(self.width - 4, 36)
        let rows = min(labels.count, max(1, height - 2))
        let left = (self.width - width) / 2
        let boxTop = top + max(0, (height - rows - 2) / 2)
        box(top: boxTop, left: left, width: width, height: rows + 2, title: title)
        let first = min(max(0, selection - rows / 2), max(0, labels.count - rows))
        for (offset, label) in labels[first..<(first + rows)].enumerated() {
            let index = first + offset
            let style = CellStyle(reverse: index == selection, dim: dimmed(index))
            put(
                " " + TextWidth.pad(TextWidth.truncate(label, to: width - 4), to: width - 4) + " ",
                row: boxTop + 1 + offset, column: left + 1, style: style)
        }
    }

    /// Writes `text` ending at the right edge (minus `margin`); returns the column it starts at.
    @discardableResult
    public mutating func putRight(_ text: String, row: Int, margin: Int = 1, style: CellStyle = .plain) -> Int {
        let column = max(0, width - margin - TextWidth.columns(of: text))
        put(text, row: row, column: column, style: style)
        return column
    }
}

/// Text wrapped to a width in terminal columns, breaking at spaces (a word longer than the
/// width is cut).
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if TextWidth.columns(of: candidate) <= width {
                    line = candidate
                } else {
                    if !line.isEmpty { lines.append(line) }
                    line =
                        TextWidth.columns(of: String(word)) > width
                        ? TextWidth.truncate(String(word), to: width) : String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
