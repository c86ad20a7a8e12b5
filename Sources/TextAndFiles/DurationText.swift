import Foundation

/// A duration as a person says it roughly: "about 10 years", "about 3 days", "about 26 hours".
public enum DurationText {
    public static func about(_ seconds: TimeInterval) -> String {
        let day = 86_400.0
        func count(_ value: Double, _ unit: String) -> String {
            let rounded = Int(value.rounded())
            return "about \(rounded) \(unit)\(rounded == 1 ? "" : "s")"
        }
        if seconds >= 2 * 365 * day { return count(seconds / (365.25 * day), "year") }
        if seconds >= 60 * day { return count(seconds / (30.44 * day), "month") }
        if seconds >= 2 * day { return count(seconds / day, "day") }
        return count(seconds / 3600, "hour")
    }
}
