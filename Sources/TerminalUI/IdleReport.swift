import Foundation

/// A file the full-screen app rewrites each time it is idle: every key typed so far handled,
/// the screen drawn, no typed input left to read. It holds `keys N` (how many keys the app has
/// handled since it started, resizes not counted) and then the text of the screen it drew, one
/// line per row, trailing spaces cut.
///
/// A testing knob, `GROCERY_DUDE_IDLE_FILE=/path`: a test that drives the app in a terminal
/// (tmux) and checks that a key did NOT do something waits until the app says it handled that
/// key and the terminal shows what the app drew, instead of hoping a timeout was long enough.
/// Background work a key started (a fetch, a sync) may still be under way.
public struct IdleReport: Sendable {
    public let path: String

    /// `nil` without a path (the knob unset or empty).
    public init?(path: String?) {
        guard let path, !path.isEmpty else { return nil }
        self.path = path
    }

    /// Replaces the file at once (a new file renamed over it): a reader never sees half of it.
    func write(keys: Int, screen: ScreenBuffer) {
        let lines = screen.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let text = (["keys \(keys)"] + lines).joined(separator: "\n") + "\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
