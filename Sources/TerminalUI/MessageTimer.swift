import Foundation
import ViewModels

/// Decides what the message line shows: the newest message for the screen, for a few seconds
/// from when it was made, then the key hints again. A message that has left the line — faded,
/// replaced, or its screen left — never comes back: switching screens or closing the editor
/// shows no older message (docs/decisions/0060).
struct MessageTimer {
    /// How long a message replaces the key hints, from when it was made.
    static let seconds: TimeInterval = 5

    /// The newest message shown so far.
    private var shown = 0
    private(set) var visible: String?

    /// Takes the screen's newest message (``AppModel/screenMessage``). Returns whether what is
    /// visible changed.
    @discardableResult
    mutating func update(_ latest: Message?, now: TimeInterval = Message.now) -> Bool {
        var next: String?
        if let latest, now - latest.made < Self.seconds {
            let isNew = latest.serial > shown
            let isStillUp = latest.serial == shown && visible != nil
            if isNew || isStillUp {
                next = latest.text
                shown = latest.serial
            }
        }
        defer { visible = next }
        return next != visible
    }
}
