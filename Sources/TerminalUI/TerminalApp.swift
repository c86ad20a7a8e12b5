import Foundation
import Logging
import ViewModels

/// The simple full-screen item list: one UI thread that waits on the keyboard and a mailbox
/// (DESIGN §6), applies keys to the view model, and redraws. The sync engine posts to the
/// mailbox when an import changed the store; every 250 ms without input the app also looks for
/// changes made by other processes of the same device.
public enum TerminalApp {
    public static func run(app: AppModel, logger: Logger) throws {
        let terminal = try CursesTerminal()
        defer { terminal.end() }
        logger.info("full-screen list opened")
        var needsDraw = true
        var pageHeight = 10
        var model: ItemListViewModel { app.currentList ?? app.prepare }

        while !terminal.isTerminationRequested {
            if needsDraw {
                let size = terminal.size
                pageHeight = max(1, size.height - 3)
                model.setViewport(height: max(1, size.height - 2))
                terminal.draw(ItemListScreen.render(model, width: size.width, height: size.height))
                needsDraw = false
            }
            // Keys curses has buffered already come first; only then wait.
            var next = terminal.readKey()
            if next == nil {
                let typed = terminal.waitForInput(wake: app.mailbox.wake, milliseconds: 250)
                if app.update() { needsDraw = true }
                if typed { next = terminal.readKey() }
            }
            guard let key = next else { continue }
            needsDraw = true
            // Keys pressed while the store changes are not applied to the old store.
            guard app.isInputEnabled else { continue }
            switch key {
            case .character("q"), .character("Q"):
                logger.info("full-screen list closed")
                return
            case .up, .character("k"): model.moveSelection(by: -1)
            case .down, .character("j"): model.moveSelection(by: 1)
            case .pageUp: model.moveSelection(by: -pageHeight)
            case .pageDown: model.moveSelection(by: pageHeight)
            case .home, .character("g"): model.moveSelection(to: 0)
            case .end, .character("G"): model.moveSelection(to: model.rowCount - 1)
            case .character(" "), .enter: model.toggleSelected()
            case .character("\t"): app.show(app.tab == .prepare ? .shop : .prepare)
            case .control("l"): terminal.invalidate()
            case .resize: break
            default: needsDraw = false
            }
        }
        logger.info("full-screen list closed by a signal")
    }
}
