import Foundation
import ViewModels

/// What the app's loop (``TerminalApp``) needs from a terminal: its size, drawing a whole
/// ``ScreenBuffer`` (characters and styles), and keys. ``CursesBackend`` is the real terminal;
/// ``TestBackend`` records what was drawn and types keys it was given, so tests drive the loop
/// as a user would.
public protocol TerminalBackend: AnyObject {
    /// Columns and lines.
    var size: (width: Int, height: Int) { get }
    /// Whether the app was asked to quit from outside (a signal; the test script ran out).
    var isTerminationRequested: Bool { get }
    /// Shows `buffer`: every cell's character and style.
    func draw(_ buffer: ScreenBuffer)
    /// Forces a full repaint at the next draw (Ctrl-L).
    func invalidate()
    /// The next key already typed, without waiting; `nil` when there is none.
    func readKey() -> Key?
    /// Waits until the keyboard or `wake` has something, or `milliseconds` pass.
    ///
    /// - Returns: whether the keyboard has input.
    func waitForInput(wake: WakePipe?, milliseconds: Int32) -> Bool
    /// Gives the terminal back as it was.
    func end()
}
