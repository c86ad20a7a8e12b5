import Foundation
import GroceryModel
import TextAndFiles
import ViewModels

/// The whole screen: the tab bar, the screen shown (or the item editor), the key hints or the
/// latest message, the status line; over them the dialog, the help, the line being typed, and
/// while the store changes, a notice saying why input waits.
///
/// ``layout(_:width:height:)`` sizes the lists to the terminal; ``render(_:width:height:message:)``
/// is then a pure function of the state into a buffer.
public enum AppScreen {
    /// The smallest terminal the app is drawn in; below it a notice says so.
    public static let minimumSize = (width: 40, height: 10)

    /// Lines above and below the content: the tab bar; the hints and the status line.
    static let chrome = 3

    /// Tells the lists how many lines they get.
    public static func layout(_ controller: AppController, width: Int, height: Int) {
        let content = max(1, height - chrome)
        for list in [controller.app.prepare, controller.app.shop] {
            list.setViewport(height: ItemListView.listHeight(list, contentHeight: content))
        }
    }

    /// Lays out, then renders: what the app and the snapshot tests call.
    public static func frame(_ controller: AppController, width: Int, height: Int, message: String? = nil)
        -> ScreenBuffer
    {
        layout(controller, width: width, height: height)
        controller.syncDialogFocus()
        return render(controller, width: width, height: height, message: message)
    }

    /// - Parameter message: the line shown instead of the key hints (a recent message), if any.
    public static func render(_ controller: AppController, width: Int, height: Int, message: String?) -> ScreenBuffer {
        var screen = ScreenBuffer(width: width, height: height)
        guard width >= minimumSize.width, height >= minimumSize.height else {
            let notice = "Terminal too small"
            let need = "need \(minimumSize.width)×\(minimumSize.height)"
            screen.put(
                TextWidth.truncate(notice, to: width), row: max(0, height / 2 - 1),
                column: max(0, (width - TextWidth.columns(of: notice)) / 2))
            screen.put(
                TextWidth.truncate(need, to: width), row: height / 2,
                column: max(0, (width - TextWidth.columns(of: need)) / 2))
            return screen
        }
        let app = controller.app
        let ui = controller.ui
        drawTabBar(app, into: &screen)
        let top = 1
        let contentHeight = height - chrome
        if let editor = app.editor {
            EditorView.draw(
                editor, selected: ui.editorRow, editing: ui.editsInPlace ? ui.prompt?.field : nil, into: &screen,
                top: top, height: contentHeight, now: app.now)
        } else {
            switch app.tab {
            case .prepare: ItemListView.draw(app.prepare, into: &screen, top: top, height: contentHeight)
            case .shop: ItemListView.draw(app.shop, into: &screen, top: top, height: contentHeight)
            case .units:
                CatalogView.draw(
                    app.units, renaming: ui.editsInPlace ? ui.prompt?.field : nil, into: &screen, top: top,
                    height: contentHeight)
            case .homeLocations:
                CatalogView.draw(
                    app.homeLocations, renaming: ui.editsInPlace ? ui.prompt?.field : nil, into: &screen, top: top,
                    height: contentHeight)
            case .shopAisles:
                CatalogView.draw(
                    app.shopAisles, renaming: ui.editsInPlace ? ui.prompt?.field : nil, into: &screen, top: top,
                    height: contentHeight)
            case .cloud:
                CloudView.draw(
                    app.cloud, into: &screen, top: top, height: contentHeight, scroll: controller.ui.cloudScroll)
            }
            if let switcher = app.listSwitcher {
                screen.pickerBox(
                    title: "Lists", labels: switcher.labels, selection: switcher.selection,
                    dimmed: { switcher.options[$0] == .new }, top: top, height: contentHeight)
            }
        }
        drawHintLine(controller, message: message, into: &screen)
        drawStatusLine(app.summary, into: &screen)
        if let notice = app.changingNotice {
            drawNotice(notice, into: &screen)
        } else if let dialog = app.dialog {
            DialogView.draw(
                dialog, focus: ui.dialogFocus, field: ui.dialogField, scroll: ui.dialogScroll, into: &screen)
        } else if ui.helpVisible {
            HelpView.draw(
                into: &screen, current: HelpView.section(for: app.tab, editing: app.editor != nil),
                scroll: ui.helpScroll)
        } else if ui.fullTextVisible {
            FullTextView.draw(controller, scroll: ui.fullTextScroll, into: &screen)
        } else if ui.historyVisible {
            ItemHistoryView.draw(controller, scroll: ui.historyScroll, into: &screen)
        }
        return screen
    }

    // MARK: - Parts

    /// The tabs' labels on a screen `width` wide, with the column each begins at.
    static func tabLabels(_ app: AppModel, width: Int) -> [(tab: AppModel.Tab, label: String, column: Int)] {
        let full = AppModel.Tab.allCases.map { " \($0.rawValue + 1) \($0.title) " }
        let compact = AppModel.Tab.allCases.map {
            $0 == app.tab ? " \($0.rawValue + 1) \($0.title) " : " \($0.rawValue + 1) "
        }
        let labels = TextWidth.columns(of: full.joined()) + 14 <= width ? full : compact
        var x = width >= 70 ? TextWidth.columns(of: " Grocery Dude ") : 0
        return zip(AppModel.Tab.allCases, labels).map { tab, label in
            defer { x += TextWidth.columns(of: label) }
            return (tab, label, x)
        }
    }

    /// The tab whose label is at column `x` of the tab bar.
    static func tab(at x: Int, app: AppModel, width: Int) -> AppModel.Tab? {
        tabLabels(app, width: width).first { x >= $0.column && x < $0.column + TextWidth.columns(of: $0.label) }?.tab
    }

    static func drawTabBar(_ app: AppModel, into screen: inout ScreenBuffer) {
        let bar = CellStyle(bold: true, reverse: true, color: .title)
        screen.fill(row: 0, style: bar)
        var x = 0
        if screen.width >= 70 { x += screen.put(" Grocery Dude ", row: 0, column: 0, style: bar) }
        for (tab, label, column) in tabLabels(app, width: screen.width) {
            let current = tab == app.tab && app.editor == nil
            x =
                column
                + screen.put(
                    label, row: 0, column: column,
                    style: current ? CellStyle(bold: true, reverse: false, color: .normal) : bar)
        }
        if let list = app.currentList, app.editor == nil {
            let counts = counted(list.totalRows, "item") + (list.listedCount.map { ", \($0) listed " } ?? " ")
            if x + TextWidth.columns(of: counts) + 2 <= screen.width {
                screen.putRight(counts, row: 0, margin: 0, style: bar)
            }
        }
    }

    static func drawHintLine(_ controller: AppController, message: String?, into screen: inout ScreenBuffer) {
        let row = screen.height - 2
        if let prompt = controller.ui.prompt, controller.ui.editsInPlace {
            // The field is typed where it is shown: this line says how it ends.
            screen.put(
                TextWidth.truncate(" \(prompt.label) Enter keeps it  Esc cancels  Ctrl-U clears", to: screen.width - 1),
                row: row, column: 0, style: CellStyle(color: .hint))
            if let error = prompt.error { drawPromptError(error, above: row, into: &screen) }
            return
        }
        if let prompt = controller.ui.prompt {
            let label = prompt.label + " "
            screen.put(label, row: row, column: 1, style: CellStyle(bold: true))
            let column = 1 + TextWidth.columns(of: label)
            DialogView.drawField(
                prompt.field, into: &screen, row: row, column: column, width: screen.width - column - 1)
            if let error = prompt.error { drawPromptError(error, above: row, into: &screen) }
            return
        }
        if let message, !message.isEmpty {
            // A message cut short says where the rest is.
            let fits = TextWidth.columns(of: message) <= screen.width - 2
            let shown =
                fits ? message : TextWidth.truncate(message, to: screen.width - 2 - fullTextKey.count) + fullTextKey
            screen.put(" " + shown, row: row, column: 0, style: CellStyle(bold: true))
            return
        }
        screen.put(
            TextWidth.truncate(hints(controller.app), to: screen.width - 1), row: row, column: 0,
            style: CellStyle(color: .hint))
    }

    /// Ends a message the line cuts short: `m` shows it in full.
    static let fullTextKey = " m:all"

    /// Why the line typed was refused, over the screen's last lines, right above the line: the
    /// field keeps its whole width, and the reason is wrapped, never cut (up to three lines).
    static func drawPromptError(_ error: String, above row: Int, into screen: inout ScreenBuffer) {
        let lines = TextWrap.lines(error, width: screen.width - 4).prefix(3)
        for (index, line) in lines.enumerated() {
            let y = row - lines.count + index
            screen.put(String(repeating: " ", count: screen.width), row: y, column: 0)
            screen.put(
                (index == 0 ? " ! " : "   ") + line, row: y, column: 0, style: CellStyle(bold: true, color: .warning))
        }
    }

    /// The most useful keys of the screen shown.
    static func hints(_ app: AppModel) -> String {
        if app.editor?.picker != nil { return " type to jump  ↑↓ choose  Enter pick  Esc cancel  Home End first last" }
        if let switcher = app.listSwitcher {
            let merge = switcher.mergeHint.map { "  + \($0)" } ?? ""
            return " type to jump  ↑↓ choose  Enter open\(merge)  Esc cancel"
        }
        if app.editor != nil { return " ↑↓ field  Enter edit  p photo  s save  q Esc leave (asks if unsaved)  ? help" }
        switch app.tab {
        // What the screen is for first, then help: a narrow terminal cuts the end of the line.
        case .prepare:
            return
                " Space list  ? help  a add  e edit  d del  o sort  f listed  +- qty  / search  C clear  u undo  q quit"
        case .shop: return " Space collected  ? help  a add  e edit  d del  +- qty  / search  C clear  u undo  q quit"
        case .units, .homeLocations, .shopAisles: return " a add  r rename  d delete  Tab next  ? help  q quit"
        case .cloud: return " c on/off  s sync  o offline  i account  ? help  M merge kept  R rebuild  X start over"
        }
    }

    static func drawStatusLine(_ summary: DeviceSummary, into screen: inout ScreenBuffer) {
        let row = screen.height - 1
        let style = CellStyle(reverse: true, color: .status)
        screen.fill(row: row, style: style)
        screen.put(
            TextWidth.truncate(" " + statusText(summary, width: screen.width - 2), to: screen.width - 1), row: row,
            column: 0, style: style)
    }

    /// The status line's words: the device, the list, the account, cloud on or off, "Using local
    /// storage", offline, the last sync, who is shopping on other devices, refused files. On a narrow terminal the least useful go
    /// first ("Using local storage", then cloud on/off, the account, the list), so that offline,
    /// refused files and the last sync stay.
    static func statusText(_ summary: DeviceSummary, width: Int = .max) -> String {
        // Each part with how long it stays: the higher, the longer.
        var parts: [(text: String, keep: Int)] = [(summary.device, 9)]
        if let list = summary.list { parts.append(("list \(list)", 5)) }
        parts += [
            (summary.account ?? "signed out", 4), (summary.cloudOn ? "cloud on" : "cloud off", 3),
            ("Using local storage: \(summary.usingLocalStorage ? 1 : 0)", 1),
        ]
        // What matters most, with the few words it says on a narrow terminal.
        var shortened: [Int: String] = [:]
        if summary.offline {
            parts.append(
                (summary.otherCloudFolder ? "offline: not the synced cloud folder (share not mounted?)" : "offline", 10)
            )
            if summary.otherCloudFolder { shortened[parts.count - 1] = "offline: share not mounted?" }
        }
        if summary.cloudOn { parts.append(("synced " + (summary.lastSync.map(CloudView.time) ?? "never"), 6)) }
        if !summary.shoppers.isEmpty { parts.append((summary.shoppers.joined(separator: ", "), 7)) }
        if summary.refusedFiles > 0 {
            parts.append(("\(summary.refusedFiles) file\(summary.refusedFiles == 1 ? "" : "s") refused (Cloud tab)", 8))
            shortened[parts.count - 1] = "\(summary.refusedFiles) refused"
        }
        func text() -> String { parts.map(\.text).joined(separator: " · ") }
        guard TextWidth.columns(of: text()) > width else { return text() }
        for (index, short) in shortened { parts[index].text = short }
        while TextWidth.columns(of: text()) > width, parts.count > 1,
            let least = parts.indices.min(by: { parts[$0].keep < parts[$1].keep })
        {
            parts.remove(at: least)
        }
        return text()
    }

    /// The centred notice while the store changes: input waits.
    static func drawNotice(_ notice: String, into screen: inout ScreenBuffer) {
        let width = min(screen.width - 4, max(30, TextWidth.columns(of: notice) + 6))
        let lines = TextWrap.lines(notice, width: width - 4) + ["", "Input waits until it is done."]
        let top = (screen.height - lines.count - 2) / 2
        let left = (screen.width - width) / 2
        screen.box(top: top, left: left, width: width, height: lines.count + 2, style: CellStyle(color: .warning))
        for (index, line) in lines.enumerated() {
            screen.put(line, row: top + 1 + index, column: left + 2, style: CellStyle(bold: index == 0, dim: index > 0))
        }
    }
}
