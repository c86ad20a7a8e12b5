import Foundation
import TextAndFiles

/// The letters typed in quick succession in a list that jumps to what they spell, as in a file
/// dialog: each letter within ``window`` seconds of the last adds to the text; after a pause a
/// letter starts a new one. Compared as the search compares (``TextFolding``: case, accents and
/// width folded), so "creme" and "CRÈME" both reach "Crème fraîche".
public struct TypeAhead: Equatable, Sendable {
    /// How long after a letter the next one still adds to it.
    public static let window: TimeInterval = 1

    /// What was typed so far, as typed.
    public private(set) var text = ""
    private var typedAt: TimeInterval = -.infinity

    public init() {}

    /// Whether a letter now would add to ``text`` (rather than start anew).
    public func isUnderWay(now: TimeInterval) -> Bool {
        now - typedAt < Self.window
    }

    /// Starts an empty type-ahead now, so that the next letters are taken as text even when they
    /// are keys of their own (`/` in a picker, for names that start with j, k, g or q).
    public mutating func begin(now: TimeInterval) {
        text = ""
        typedAt = now
    }

    /// Adds a letter typed now (or starts anew after a pause); returns the text to look for.
    public mutating func add(_ character: Character, now: TimeInterval) -> String {
        if !isUnderWay(now: now) { text = "" }
        text.append(character)
        typedAt = now
        return text
    }

    public mutating func reset() {
        text = ""
        typedAt = -.infinity
    }

    /// Adds a letter typed now and returns the index of the first of `names` that the letters
    /// typed so far spell — the letter starting anew when nothing matches with the earlier
    /// ones — or `nil` when none does.
    public mutating func jump(_ character: Character, now: TimeInterval, in names: [String]) -> Int? {
        let typed = add(character, now: now)
        if let match = Self.firstMatch(typed, in: names) { return match }
        guard typed.count > 1 else { return nil }
        reset()
        return Self.firstMatch(add(character, now: now), in: names)
    }

    /// The first of `names` that starts with `typed`, folded; failing that, the first that
    /// contains it.
    public static func firstMatch(_ typed: String, in names: [String]) -> Int? {
        let wanted = TextFolding.fold(typed)
        guard !wanted.isEmpty else { return nil }
        let folded = names.map(TextFolding.fold)
        return folded.firstIndex { $0.hasPrefix(wanted) } ?? folded.firstIndex { $0.contains(wanted) }
    }
}
