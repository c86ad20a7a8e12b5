import Foundation
import ViewModels

/// A terminal in memory, as ratatui's `TestBackend`: it types the keys it was given, one at a
/// time, and keeps every frame drawn, characters and styles. When its keys run out it asks the
/// loop to end once the loop is idle (it waited twice without drawing: the last key's screen
/// and what the mailbox brought are drawn), so `TerminalApp.run(app:logger:backend:)` returns.
/// Waiting never waits.
public final class TestBackend: TerminalBackend {
    public var size: (width: Int, height: Int)
    /// Every frame drawn, oldest first.
    public private(set) var frames: [ScreenBuffer] = []
    /// How many full repaints were asked for (Ctrl-L).
    public private(set) var invalidations = 0
    public private(set) var isEnded = false
    private var keys: [Key]
    /// Waits since the last draw or key.
    private var idleWaits = 0
    /// Called before each key is typed, with it: a test's chance to change the world between keys.
    public var beforeKey: (Key) -> Void = { _ in }

    public init(width: Int, height: Int, keys: [Key] = []) {
        size = (width, height)
        self.keys = keys
    }

    /// The last frame drawn (an empty screen before the first).
    public var buffer: ScreenBuffer { frames.last ?? ScreenBuffer(width: size.width, height: size.height) }

    /// Types more keys.
    public func type(_ more: [Key]) { keys += more }

    /// Types text, a character at a time.
    public func type(_ text: String) { keys += text.map(Key.character) }

    public var isTerminationRequested: Bool { keys.isEmpty && idleWaits >= 2 }

    public func draw(_ buffer: ScreenBuffer) {
        frames.append(buffer)
        idleWaits = 0
    }

    public func invalidate() { invalidations += 1 }

    public func readKey() -> Key? {
        guard !keys.isEmpty else { return nil }
        let key = keys.removeFirst()
        idleWaits = 0
        beforeKey(key)
        return key
    }

    public func waitForInput(wake: WakePipe?, milliseconds: Int32) -> Bool {
        idleWaits += 1
        return !keys.isEmpty
    }

    public func end() { isEnded = true }
}
