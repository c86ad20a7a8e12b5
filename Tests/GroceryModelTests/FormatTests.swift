import Foundation
import Testing

@testable import GroceryModel

@Suite("CSV and timestamps")
struct FormatTests {
    @Test func csvQuotesWhatNeedsQuotingAndReadsItBack() throws {
        let rows = [["a", "b,c", "say \"hi\""], ["line\nbreak", " padded ", ""], ["🍞", "x", "y"]]
        let text = CSVTable.write(rows)
        #expect(text.hasPrefix("a,\"b,c\",\"say \"\"hi\"\"\"\r\n"))
        #expect(try CSVTable.parse(text) == rows)
    }

    @Test func csvAcceptsLFAndAMissingFinalNewline() throws {
        #expect(try CSVTable.parse("a,b\nc,d") == [["a", "b"], ["c", "d"]])
        #expect(try CSVTable.parse("a,\"\"\n") == [["a", ""]])
    }

    @Test func csvRejectsTextAfterAClosingQuote() {
        #expect(throws: ArchiveError.malformed("line 1: text after a closing quote")) {
            try CSVTable.parse("\"a\"b,c\n")
        }
    }

    @Test func timestampsRoundTripExactly() throws {
        for seconds in [0, 1_800_000_000.125, 1_234_567_890.999, -1.5, 978_307_200.001] {
            let date = Timestamp.rounded(Date(timeIntervalSince1970: seconds))
            let text = Timestamp.string(date)
            #expect(Timestamp.parse(text) == date, "\(text)")
        }
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1_800_000_000.125)) == "2027-01-15T08:00:00.125Z")
        #expect(Timestamp.parse("2027-01-15T08:00:00Z") == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(Timestamp.parse("soon") == nil)
    }

    /// The text is made digit by digit in place; Foundation's formatter, set to the same form,
    /// is the reference: the last moment allowed, leap days, times before 1970, and a spread of
    /// moments in between, each with milliseconds. (Before 1583 the formatter's calendar is the
    /// Julian one, the C library's the Gregorian: year 1 is checked by its text.)
    @Test func timestampsAgreeWithFoundationsFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        var moments: [Double] = [
            0, -0.001, -1.5, 951_782_400.5, 1_709_164_799.999, 4_107_542_400, 253_402_300_799.999,
            -2_208_988_800.25,
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            moments.append(Double(Int64.random(in: -11_676_096_000_000...253_402_300_799_999, using: &random)) / 1000)
        }
        for seconds in moments {
            let date = Timestamp.rounded(Date(timeIntervalSince1970: seconds))
            var bytes: [UInt8] = []
            Timestamp.append(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == formatter.string(from: date), "\(seconds)")
            #expect(Timestamp.string(date) == formatter.string(from: date), "\(seconds)")
        }
        #expect(Timestamp.string(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: -1e12)) == "0001-01-01T00:00:00.000Z", "clamped")
    }

    /// The calendar date a timestamp is written with is computed, not asked of the C library:
    /// every day of years 1–9999 (leap years, centuries, the year 1970 on either side) as
    /// `gmtime_r` gives it.
    @Test func calendarDatesAgreeWithTheCLibraryOnEveryDayOfYears1To9999() {
        var mismatches: [Int] = []
        for day in -719_162...2_932_896 {  // 0001-01-01 ... 9999-12-31
            var seconds = time_t(day) * 86_400
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let civil = Timestamp.civilDate(days: day)
            if civil != (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)), mismatches.count < 5 {
                mismatches.append(day)
            }
        }
        #expect(mismatches == [])
    }

    @Test func quantitiesPrintWithoutNoise() {
        #expect(QuantityFormat.string(2) == "2")
        #expect(QuantityFormat.string(1.5) == "1.5")
        #expect(QuantityFormat.string(0.125) == "0.125")
    }
}

@Suite("Timestamp parsing")
struct TimestampParsingTests {
    @Test(arguments: ["2027-01-15T10:00:00+02:00", "2027-01-15T08:00:00Z", "2027-01-15T03:00:00.000-05:00"])
    func offsetsAreApplied(_ text: String) {
        #expect(Timestamp.parse(text) == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: [
        "2027-02-31T00:00:00Z", "2027-13-01T00:00:00Z", "2027-01-15T08:00:00", "2027-01-15T08:00:00.Z",
        "2027-01-15T08:00:00Zjunk", "27-01-15T08:00:00Z", "",
    ])
    func badDatesAreRefused(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }
}
