import Foundation

/// The dates an import file may hold: finite, from 1970-01-01 to 9999-12-31 (UTC).
///
/// Anything else is damage, not a date anyone meant, and would not survive being written back
/// as ISO 8601.
enum FileDate {
    /// How the range reads in messages.
    static let range = "from 1970 to 9999"

    /// The first instant after the range: 10000-01-01T00:00:00Z.
    private static let end = 253_402_300_800.0

    /// Whether `date` is in the range.
    static func isValid(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite && seconds >= 0 && seconds < end
    }
}
