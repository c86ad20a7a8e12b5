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
