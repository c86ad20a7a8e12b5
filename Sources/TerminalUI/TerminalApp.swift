import Foundation
import Logging
import ViewModels

/// The full-screen app's loop: one UI thread that waits on the keyboard and the mailbox's wake
/// pipe, updates the app model (mailbox events, due transitions, refreshes), hands
/// keys to the ``AppController``, and redraws what changed.
public enum TerminalApp {
    /// Runs the app in the terminal (curses) until `q` or a signal.
    /// - Parameters:
    ///   - mouse: whether the app takes the mouse (wheel, clicks).
    ///   - idleReport: where to say that the app is idle (for tests; ``IdleReport``).
    public static func run(app: AppModel, logger: Logger, mouse: Bool = true, idleReport: IdleReport? = nil) throws {
        let terminal = try CursesBackend(mouse: mouse)
        defer { terminal.end() }
        run(app: app, logger: logger, backend: terminal, idleReport: idleReport)
    }

    /// Runs the app on `backend` until `q`, or until the backend asks to end.
    public static func run(
        app: AppModel, logger: Logger, backend terminal: some TerminalBackend, idleReport: IdleReport? = nil
    ) {
        let controller = AppController(app: app)
        var needsDraw = true
        var message = MessageTimer()
        // For the idle report: keys handled, the last frame drawn and whether it was reported.
        var keysHandled = 0
        var lastFrame: ScreenBuffer?
        var reported = true
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
                let frame = AppScreen.frame(
                    controller, width: size.width, height: size.height, message: message.visible)
                terminal.draw(frame)
                lastFrame = frame
                reported = false
                needsDraw = false
                if let point = AppModel.requestedAppTrap { fatalError("fault injected: \(point)") }
            }
            // Keys already typed come first; only then wait.
            var next = terminal.readKey()
            if next == nil {
                if let idleReport, let lastFrame, !reported {
                    idleReport.write(keys: keysHandled, screen: lastFrame)
                    reported = true
                }
                let typed = terminal.waitForInput(wake: app.mailbox.wake, milliseconds: 250)
                if app.update() { needsDraw = true }
                if typed { next = terminal.readKey() }
            }
            guard let key = next else { continue }
            needsDraw = true
            if key != .resize { keysHandled += 1 }
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
