import Foundation
import Logging
import ViewModels

/// The simple full-screen item list: a loop that reads keys, applies them to the view model,
/// and redraws. Between keys (every 250 ms at most) it calls `idle` (which imports other
/// peers' logs) and polls the store, so changes from other terminals and devices appear.
public enum TerminalApp {
    public static func run(model: ItemListViewModel, logger: Logger, idle: () -> Void = {}) throws {
        let terminal = try CursesTerminal()
        defer { terminal.end() }
        logger.info("full-screen list opened")
        model.refreshIfChanged()
        var needsDraw = true
        var pageHeight = 10

        while !terminal.isTerminationRequested {
            if needsDraw {
                let size = terminal.size
                pageHeight = max(1, size.height - 3)
                terminal.draw(ItemListScreen.render(model, width: size.width, height: size.height))
                needsDraw = false
            }
            guard let key = terminal.readKey() else {
                idle()
                needsDraw = model.refreshIfChanged()
                continue
            }
            needsDraw = true
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
            case .control("l"): terminal.invalidate()
            case .resize: break
            default: needsDraw = false
            }
        }
        logger.info("full-screen list closed by a signal")
    }
}
