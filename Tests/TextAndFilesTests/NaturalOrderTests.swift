import Testing
import TextAndFiles

/// Names in the order Finder and GNOME Files give them; a total order, the same on every device.
@Suite("Natural order of names")
struct NaturalOrderTests {
    func sorted(_ names: [String]) -> [String] { names.sorted(by: NaturalOrder.areInIncreasingOrder) }

    @Test func runsOfDigitsCompareAsNumbers() {
        #expect(sorted(["Aisle 10", "Aisle 2", "Aisle 1", "Aisle"]) == ["Aisle", "Aisle 1", "Aisle 2", "Aisle 10"])
        #expect(sorted(["x10y", "x2y", "x2z"]) == ["x2y", "x2z", "x10y"])
        #expect(
            sorted(["Item 100000000000000000000", "Item 99999999999999999999"]) == [
                "Item 99999999999999999999", "Item 100000000000000000000",
            ],
            "numbers longer than any integer type")
    }

    @Test func numbersComeBeforeLettersAndTextIsFolded() {
        #expect(sorted(["a", "2"]) == ["2", "a"])
        #expect(sorted(["Zucchini", "\u{C9}clair", "apple", "Eggs"]) == ["apple", "\u{C9}clair", "Eggs", "Zucchini"])
        #expect(sorted(["Week 1 b", "Week 1"]) == ["Week 1", "Week 1 b"], "a name before its longer names")
    }

    @Test func namesEqualSoFarAreOrderedByLeadingZerosThenAsWritten() {
        #expect(sorted(["Aisle 002", "Aisle 02", "Aisle 2"]) == ["Aisle 2", "Aisle 02", "Aisle 002"])
        #expect(sorted(["milk", "Milk", "MILK"]) == ["MILK", "Milk", "milk"])
        #expect(sorted(["0", "00", "a0"]) == ["0", "00", "a0"])
    }

    /// Sorting never depends on the order names came in: for any two different names exactly one
    /// is first, and the order is transitive.
    @Test func theOrderIsTotal() {
        let names = [
            "", "0", "00", "1", "01", "10", "a", "A", "\u{E1}", "a\u{301}", "a1", "a01", "a10", "b", "Aisle 2",
            "aisle 2", "Aisle 02", "\u{FF21}", "2a", "a 2", "a2",
        ]
        for a in names {
            #expect(!NaturalOrder.areInIncreasingOrder(a, a))
            for b in names where a != b {
                #expect(
                    NaturalOrder.areInIncreasingOrder(a, b) != NaturalOrder.areInIncreasingOrder(b, a),
                    "\(a.debugDescription) and \(b.debugDescription)")
                for c in names
                where NaturalOrder.areInIncreasingOrder(a, b) && NaturalOrder.areInIncreasingOrder(b, c) {
                    #expect(NaturalOrder.areInIncreasingOrder(a, c), "\(a) < \(b) < \(c)")
                }
            }
        }
        #expect(sorted(names) == sorted(names.reversed()))
    }
}
