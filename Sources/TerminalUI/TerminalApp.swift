import Foundation
import Logging
import ViewModels

/// The full-screen app's loop: one UI thread that waits on the keyboard and the mailbox's wake
/// pipe, updates the app model (mailbox events, due transitions, refreshes), hands
/// keys to the ``AppController``, and redraws what changed.
public enum TerminalApp {
    /// Runs the app in the terminal (curses) until `q` or a signal.
    /// - Parameter mouse: whether the app takes the mouse (wheel, clicks).
    public static func run(app: AppModel, logger: Logger, mouse: Bool = true) throws {
        let terminal = try CursesBackend(mouse: mouse)
        defer { terminal.end() }
        run(app: app, logger: logger, backend: terminal)
    }

    /// Runs the app on `backend` until `q`, or until the backend asks to end.
    public static func run(app: AppModel, logger: Logger, backend terminal: some TerminalBackend) {
        let controller = AppController(app: app)
        var needsDraw = true
        var message = MessageTimer()
        // Long work on this thread (rebuild, start over) draws its progress as it goes.
        app.cloud.redraw = {
            let size = terminal.size
            terminal.draw(AppScreen.frame(controller, width: size.width, height: size.height, message: nil))
        }
        logger.info("full-screen app opened")

        while !terminal.isTerminationRequested {
            if message.update(app.screenMessage) { needsDraw = true }
            controller.noteMessage(app.screenMessage)
            if needsDraw {
                let size = terminal.size
                terminal.draw(
                    AppScreen.frame(controller, width: size.width, height: size.height, message: message.visible))
                needsDraw = false
                if let point = AppModel.requestedAppTrap { fatalError("fault injected: \(point)") }
            }
            // Keys already typed come first; only then wait.
            var next = terminal.readKey()
            if next == nil {
                let typed = terminal.waitForInput(wake: app.mailbox.wake, milliseconds: 250)
                if app.update() { needsDraw = true }
                if typed { next = terminal.readKey() }
            }
            guard let key = next else { continue }
            needsDraw = true
            switch key {
            case .control("l"): terminal.invalidate()
            case .resize: break
            default:
                let size = terminal.size
                controller.screenHeight = size.height
                controller.screenWidth = size.width
                if controller.handle(key) == .quit {
                    logger.info("full-screen app closed")
                    return
                }
            }
        }
        logger.info("full-screen app closed by a signal")
    }
}
