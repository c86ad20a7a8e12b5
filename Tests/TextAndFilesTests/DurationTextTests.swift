import Foundation
import Testing
import TextAndFiles

/// A duration as a person says it roughly, in the unit that reads best.
@Suite("Rough durations")
struct DurationTextTests {
    let hour = 3600.0
    let day = 86_400.0

    @Test func underTwoDaysInHours() {
        #expect(DurationText.about(0) == "about 0 hours")
        #expect(DurationText.about(hour) == "about 1 hour")
        #expect(DurationText.about(1.5 * hour) == "about 2 hours")
        #expect(DurationText.about(26 * hour) == "about 26 hours")
        #expect(DurationText.about(2 * day - 1) == "about 48 hours")
    }

    @Test func thenDaysMonthsAndYears() {
        #expect(DurationText.about(2 * day) == "about 2 days")
        #expect(DurationText.about(59 * day) == "about 59 days")
        #expect(DurationText.about(60 * day) == "about 2 months")
        #expect(DurationText.about(400 * day) == "about 13 months")
        #expect(DurationText.about(2 * 365 * day) == "about 2 years")
        #expect(DurationText.about(3653 * day) == "about 10 years")
    }
}
