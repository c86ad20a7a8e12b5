import Foundation
import Logging
import ViewModels

/// The simple full-screen item list: one UI thread that waits on the keyboard and a mailbox
/// (DESIGN §6), applies keys to the view model, and redraws. The sync engine posts to the
/// mailbox when an import changed the store; every 250 ms without input the app also looks for
/// changes made by other processes of the same device.
public enum TerminalApp {
    ///
    /// - Parameter onIdle: called on the UI thread after each wait (every 250 ms at most, and
    ///   whenever the mailbox is woken): where the app performs store transitions that are due.
    ///   Returns whether the screen needs drawing again.
    public static func run(model: ItemListViewModel, logger: Logger, mailbox: Mailbox<SyncEvent>? = nil,
                           onIdle: () -> Bool = { false }) throws {
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
            // Keys curses has buffered already come first; only then wait.
            var next = terminal.readKey()
            if next == nil {
                let typed = terminal.waitForInput(wake: mailbox?.wake, milliseconds: 250)
                for event in mailbox?.take() ?? [] {
                    model.show(event.message)
                    needsDraw = true
                }
                if onIdle() { needsDraw = true }
                if typed { next = terminal.readKey() }
            }
            guard let key = next else {
                needsDraw = model.refreshIfChanged() || needsDraw
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
